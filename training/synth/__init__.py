"""Synthetic tile pictures: many-style faces (:mod:`training.synth.faces`) for training and the product's
tile pictures. Scenes (tables, hands, walls) are built on top of :func:`training.synth.faces.render_face`."""
