import os

from hypothesis import HealthCheck, settings

# Deterministic and deadline-free: a loaded CI machine must not make a property test flaky.
settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
