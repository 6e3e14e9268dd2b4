"""The table scene renderer: geometry of labels, poses, occlusion, determinism."""

import math

import numpy as np
import pytest

from companion.tiles import Tile
from training.synth.faces import CLEAN_STYLE, sample_style
from training.synth.scene import (
    Camera,
    Lighting,
    Occluder,
    PlacedTile,
    Pose,
    PropKind,
    SceneStyle,
    render_table,
    render_table_ids,
)
from training.synth.scene_layouts import random_scene

STYLE = SceneStyle(CLEAN_STYLE)
LIGHT = Lighting(uneven=0.0, shadow=0.0)
TOP = Camera(target=(0.0, 0.0), distance=600.0, tilt=0.0, focal=600.0, size=(320, 240))


def one(tile: PlacedTile, cam: Camera = TOP, occluders: tuple[Occluder, ...] = ()) -> list:
    _, labels = render_table([tile], cam, STYLE, LIGHT, occluders, seed=1)
    return labels


def test_a_face_up_tile_seen_from_above_is_labelled_where_it_lies() -> None:
    (lab,) = one(PlacedTile(Tile.M5, 0, 0))
    cx, cy, w, h, angle = lab.obb()
    assert lab.kind == Tile.M5 and lab.face_up
    # the top face is 20 mm above the table: the camera is 580 mm from it, focal 600 px
    scale = 600 / (600 - STYLE.tile.depth)
    assert (cx, cy) == pytest.approx((160, 120), abs=0.5)
    assert (w, h) == pytest.approx((STYLE.tile.width * scale, STYLE.tile.height * scale), rel=0.01)
    assert angle == pytest.approx(0, abs=0.5)
    assert lab.visible > 0.97


@pytest.mark.parametrize("rotation", [90.0, -30.0, 180.0])
def test_rotation_turns_the_label(rotation: float) -> None:
    (lab,) = one(PlacedTile(Tile.Z1, 0, 0, rotation=rotation))
    got = lab.obb()[4]
    assert math.isclose((got - rotation + 180) % 360 - 180, 0, abs_tol=0.5)


def test_a_face_down_tile_is_unknown_and_a_hidden_stack_level_is_not_visible() -> None:
    _, labels = render_table([PlacedTile(Tile.M1, 0, 0, 0, 0, Pose.FACE_DOWN),
                              PlacedTile(Tile.M2, 0, 0, 1, 0, Pose.FACE_DOWN)], TOP, STYLE, LIGHT, (), 1)
    by_index = {lab.index: lab for lab in labels}
    assert by_index[1].kind == Tile.UNKNOWN and not by_index[1].face_up and by_index[1].visible > 0.97
    assert 0 not in by_index or by_index[0].visible < 0.05


def test_a_hand_over_a_tile_hides_it() -> None:
    hand = Occluder(PropKind.HAND, 10, 0, 170, rotation=0, colour=(0.5, 0.6, 0.8), height=60)
    (lab,) = one(PlacedTile(Tile.P3, 0, 0), occluders=(hand,))
    assert lab.visible < 0.5


def test_tilted_camera_sees_the_near_side_of_a_standing_tile() -> None:
    cam = Camera(target=(0.0, 0.0), distance=600.0, tilt=30.0, focal=600.0, size=(320, 240))
    # standing at the near edge, facing the owner (the near side, -y): the camera sees the front
    (lab,) = one(PlacedTile(Tile.S7, 0, 0, pose=Pose.STANDING), cam)
    assert lab.kind == Tile.S7
    # turned around, the camera sees its back
    (lab,) = one(PlacedTile(Tile.S7, 0, 0, rotation=180, pose=Pose.STANDING), cam)
    assert lab.kind == Tile.UNKNOWN


def test_a_standing_tile_seen_from_straight_above_is_labelled_by_its_outline() -> None:
    # from above, the face is edge-on: what shows is the top edge, and the label is the whole visible tile,
    # a tile whose face cannot be seen
    (lab,) = one(PlacedTile(Tile.S7, 0, 0, pose=Pose.STANDING))
    assert lab.kind == Tile.UNKNOWN and not lab.face_up
    cx, cy, w, h, _ = lab.obb()
    scale = 600 / (600 - STYLE.tile.height)  # the top edge is a tile height above the table
    assert (cx, cy) == pytest.approx((160, 120), abs=1.0)
    assert sorted((w, h)) == pytest.approx(sorted((STYLE.tile.width * scale, STYLE.tile.depth * scale)), rel=0.1)
    assert lab.visible > 0.9


def test_a_standing_tile_seen_too_flat_to_read_is_its_outline_and_readable_ones_stay_faces() -> None:
    # tilted 30 degrees, the front is seen 60 degrees off straight on (cos 0.5): readable, its face is the label
    cam = Camera(target=(0.0, 0.0), distance=600.0, tilt=30.0, focal=600.0, size=(320, 240))
    (face,) = one(PlacedTile(Tile.S7, 0, 0, pose=Pose.STANDING), cam)
    # tilted 10 degrees, it is 80 degrees off: the outline (top edge and the sliver of face) is the label
    flat = Camera(target=(0.0, 0.0), distance=600.0, tilt=10.0, focal=600.0, size=(320, 240))
    (outline,) = one(PlacedTile(Tile.S7, 0, 0, pose=Pose.STANDING), flat)
    assert face.kind == Tile.S7 and face.face_up
    assert outline.kind == Tile.UNKNOWN and not outline.face_up and outline.visible > 0.9
    # the outline holds the top edge and the face's sliver: deeper than the top edge alone
    assert min(outline.obb()[2:4]) > STYLE.tile.depth * 600 / (600 - STYLE.tile.height)


def test_random_scenes_are_deterministic_and_labels_lie_in_the_frame() -> None:
    for kind, split in (("table", "train"), ("photo", "heldout")):
        rng = np.random.default_rng(7)
        scene = random_scene(rng, sample_style(rng, split), split, kind, (320, 240))
        args = (scene.layout, scene.camera, scene.style, scene.lighting, scene.occluders, scene.seed)
        a, labels = render_table(*args)
        b, _ = render_table(*args)
        assert a.shape == (240, 320, 3) and a.dtype == np.uint8
        assert np.array_equal(a, b)
        seen = [lab for lab in labels if lab.visible > 0.6]
        assert seen, kind
        for lab in seen:
            cx, cy, *_ = lab.obb()
            assert -5 < cx < 325 and -5 < cy < 245


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError):
        PlacedTile(Tile.M1, 0, 0, level=-1)
    with pytest.raises(ValueError):
        Camera(tilt=85)
    with pytest.raises(ValueError):
        SceneStyle(CLEAN_STYLE, table="marble")


def test_wide_tables_leave_heldout_scenes_alone_and_keep_away_from_heldout_colours() -> None:
    from training.synth.scene_layouts import near_heldout, sample_scene_style

    for i in range(4):
        a, b = np.random.default_rng([9, i]), np.random.default_rng([9, i])
        face = sample_style(np.random.default_rng(i), "heldout")
        plain = random_scene(a, face, "heldout", "table", (640, 360))
        wide = random_scene(b, face, "heldout", "table", (640, 360), wide=True)
        assert plain == wide  # held-out scenes draw the same numbers with or without wide tables
    rng = np.random.default_rng(3)
    styles = [sample_scene_style(rng, CLEAN_STYLE, "train", wide=True) for _ in range(300)]
    wide_ones = [s for s in styles if s.table_second is not None]
    assert 100 < len(wide_ones) < 200  # about half
    assert {s.table for s in wide_ones} == {"felt", "wood", "plain", "stripes"}
    assert not any(near_heldout(np.array(s.table_colour)) or near_heldout(np.array(s.table_second))
                   for s in wide_ones)


def test_the_id_buffer_shows_what_is_on_top_tile_side_or_prop() -> None:
    """Seen at a slant: a face-down tile lying on a phone shows over it, the tiles' sides have their own id,
    and each prop's id appears only inside that prop's own polygons."""
    import cv2

    from training.synth.scene import SIDE_ID, prop_id
    from training.synth.scene_props import prop_polygons

    cam = Camera(target=(0.0, 0.0), distance=600.0, tilt=35.0, focal=600.0, size=(320, 240))
    props = (Occluder(PropKind.COIN, 100, 60, 25, colour=(0.6, 0.6, 0.2)),
             Occluder(PropKind.PHONE, 0, 0, 150, rotation=0, colour=(0.2, 0.3, 0.3)),
             Occluder(PropKind.HAND, -120, -80, 100, colour=(0.5, 0.6, 0.8), height=60))
    tiles = [PlacedTile(Tile.M5, 0, 0, pose=Pose.FACE_DOWN), PlacedTile(Tile.S2, 60, -20, pose=Pose.STANDING)]
    _, labels, ids = render_table_ids(tiles, cam, STYLE, LIGHT, props, seed=1)
    by_index = {lab.index: lab for lab in labels}
    assert by_index[0].visible > 0.97  # the face-down tile, over the phone under it
    cx, cy = (int(round(v)) for v in by_index[0].obb()[:2])
    assert ids[cy, cx] == 1
    assert set(np.unique(ids)) <= {0, 1, 2, SIDE_ID, prop_id(0), prop_id(1), prop_id(2)}
    assert (ids == SIDE_ID).sum() > 50  # the slant shows the tiles' sides
    rng = np.random.default_rng(0)
    for k, prop in enumerate(props):
        hull = np.zeros(ids.shape, np.uint8)
        for poly, _ in prop_polygons(cam, prop, rng):
            cv2.fillConvexPoly(hull, np.round(poly).astype(np.int32), 1)
        hull = cv2.dilate(hull, np.ones((3, 3), np.uint8))
        shows = ids == prop_id(k)
        assert shows.sum() > 20 and not (shows & (hull == 0)).any(), prop.kind
