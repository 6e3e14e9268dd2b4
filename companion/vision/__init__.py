"""Vision: from camera frames and photos to tile observations.

Frames and crops are ``HxWx3`` ``uint8`` BGR arrays (OpenCV's order). :mod:`companion.vision.preprocess`
turns crops into the classifier's input (shared with training so both see identical pixels),
:mod:`companion.vision.classify` reads tile crops with the packaged ONNX model and
:mod:`companion.vision.calibration` adapts it to one physical tile set.
"""
