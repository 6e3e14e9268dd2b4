"""The Flet app (web mode): view-models in plain Python (``table_model``, ``photo_model``, ``words``) and thin
views (``views``) that draw them; ``server`` serves it. Only this package imports flet, and only ``views`` and
``server`` do.
"""
