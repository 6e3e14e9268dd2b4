"""Pure functions on hands: the winning shape, waits, shanten, efficiency, tai and settlement.

Nothing here imports the game tracker, numpy, cv2, onnxruntime or flet.
"""

from companion.rules.efficiency import DiscardOption, Improvement, discard_options
from companion.rules.profiles import Profile, ProfileError, load_profile
from companion.rules.scoring import FalseWin, NotAWin, Score, ScoredItem, score
from companion.rules.settlement import Payment, Settlement, Stakes, settle, settle_false_win
from companion.rules.shanten import shanten
from companion.rules.shape import Decomposition, Group, GroupKind, decompositions, is_complete
from companion.rules.waits import (
    WaitShape,
    is_ready,
    structural_waits,
    wait_counts,
    wait_shape,
    wait_shapes,
    waits,
)
from companion.rules.win import Replacement, Win, WinInputError, WinType

__all__ = [
    "DiscardOption",
    "Improvement",
    "discard_options",
    "Decomposition",
    "FalseWin",
    "Group",
    "GroupKind",
    "NotAWin",
    "Payment",
    "Profile",
    "ProfileError",
    "Replacement",
    "Score",
    "ScoredItem",
    "Settlement",
    "Stakes",
    "WaitShape",
    "Win",
    "WinInputError",
    "WinType",
    "decompositions",
    "is_complete",
    "is_ready",
    "load_profile",
    "score",
    "settle",
    "settle_false_win",
    "shanten",
    "structural_waits",
    "wait_counts",
    "wait_shape",
    "wait_shapes",
    "waits",
]
