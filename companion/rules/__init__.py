"""Pure functions on hands: the winning shape, waits, shanten, efficiency, tai and settlement.

Nothing here imports the game tracker, numpy, cv2, onnxruntime or flet.
"""

from companion.rules.shape import Decomposition, Group, GroupKind, decompositions, is_complete

__all__ = ["Decomposition", "Group", "GroupKind", "decompositions", "is_complete"]
