"""Sub-commands of ``companion``: one module each, each with ``register(subparsers)``."""
