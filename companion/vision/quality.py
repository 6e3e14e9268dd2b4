"""Is a photo fit to be read? Measured on the tiles the reader found: a shaken (motion-blurred) photo and a
black-and-white one are misread without a word otherwise.

>>> q = photo_quality(image, reader.read(image, tiled=True))   # doctest: +SKIP
>>> q.shaken, q.greyscale                                      # doctest: +SKIP
(False, False)

Both are judged on the face-up tiles' upright crops (what the classifier reads), each shrunk to
:data:`JUDGE_WIDTH` pixels wide so that a blur counts by its length against the tile's size, as it counts for the
reading: a 9-pixel streak is harmless across a 110-pixel tile and ruins a 37-pixel one. The tiles judged are those
at least :data:`JUDGE_MIN` wide; a photo with fewer than :data:`JUDGE_FROM` of them (a wide shot of a table) is
judged on its tiles from :data:`SMALL_MIN` wide, each shrunk to :data:`SMALL_WIDTH`, and one with fewer than
:data:`JUDGE_FROM` of those either, though it has tiles, is said to be too small to read reliably
(:data:`SMALL_EN`); its :class:`PhotoQuality` then measures neither on the tiles, but whether the whole photo is
streaked (:data:`PHOTO_STREAKED_BELOW`: a shake may blur the tiles past finding them), and one with no tile found at
all says so (:data:`NONE_FOUND_EN`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.tiles import Tile
from companion.vision.preprocess import one_cv_thread
from companion.vision.read import DARK_TO, Detections, levels_stretched, upright_crops

__all__ = ["PhotoQuality", "photo_quality", "exposed", "SHAKEN_BELOW", "GREY_BELOW", "ONE_TINT_BELOW", "CONTRAST_BELOW",
           "STREAKED_BELOW", "STREAK_WAYS", "SOFT_AND_UNEVEN_BELOW", "BALANCED_BELOW", "SHAKEN_EN", "SHAKEN_ZH", "GREY_EN", "GREY_ZH", "SMALL_MIN", "SMALL_WIDTH", "JUDGE_FULL", "judge_widths", "SMALL_EN", "SMALL_ZH",
           "GREY_OF_EN", "GREY_OF_ZH", "GREY_GROUPS", "colour_groups", "grey_words",
           "PHOTO_STREAKED_BELOW", "NONE_FOUND_EN", "NONE_FOUND_ZH", "SURELY_SHAKEN", "DOUBTFUL_SHARE"]

JUDGE_WIDTH = 16
"""The width (pixels; height 4/3 of it) each tile's crop is shrunk to before it is judged ..."""
JUDGE_FROM = 3
"""... when the photo has at least this many face-up tiles at least :data:`JUDGE_MIN` wide."""
JUDGE_AT_MOST = 24
"""A photo with more tiles to judge has this many judged, spread evenly over them in the detector's order: the
checks cost 0.2-0.8 ms a tile, by its size (all 144 of a 1280 x 720 frame of a table 30-48 ms, of a dev photo's
143-156 at its full size 61-171 ms; the demo photo's 19, 12 ms); a sample of 24 costs 5-8 ms and 17-18 ms there, and
gives the same verdicts (models/README.md, "Photo checks")."""
JUDGE_MIN = 32
"""The narrowest tile judged (pixels): twice :data:`JUDGE_WIDTH`, so that every tile judged is shrunk well (a tile
cut at about its own size looks softer than one shrunk: judged at 24 pixels wide, 15 of 39 rendered table frames
without blur, their tiles 24 to 60 pixels wide, read as shaken; at 16, none). From 24 pixels, sharp dev photos
scaled down until their tiles were 23-31 pixels wide (``cv2.INTER_AREA``, no blur) read as shaken in 8 of 99 scaled
photos (sharpness 1.54-2.0) though they read as well as at full size; from 32, none of the 99 (the lowest 2.01)."""
JUDGE_FULL = 36
"""The narrowest tile shrunk to :data:`JUDGE_WIDTH` to be judged: a tile from :data:`JUDGE_MIN` wide is shrunk to
:data:`SMALL_WIDTH`, as the widest small tile is, and the width rises to :data:`JUDGE_WIDTH` at this
(:func:`judge_widths`; 33 pixels wide: 12, 34: 13). Each tile from 32 pixels was shrunk to 16, only twice, while one
of 31 was shrunk to 10: a jump, and a tile shrunk only twice looks softer. A change review found sharp photos whose
tiles were 32-35 pixels wide called shaken (dev photo 2-4 at 0.41-0.44 of its size, 9.jpg at 0.43, sharpness
1.90-1.98, every tile read right). Measured on the ten dev photos and the demo photo scaled from 0.15 to 0.60 in
steps of 0.01 and to 1, 1/2, 1/3 and 1/4 (528; ``cv2.INTER_AREA``) and saved as JPEG at quality 60 from 0.15 to 0.60
in steps of 0.03 (176): 5 and 3 were called shaken, now none (the lowest 2.09, 2.02 as JPEG); at 34 or 35, 2-4 at
0.45 as JPEG still is (1.95, 1.98). The same photos at full size blurred with line kernels 3, 5, 9, 15 and 25 pixels
long at 0, 45, 90 and 135 degrees (220) are flagged as before (0, 4, 16, 42 and 42 of 44). At 1/2, 1/3 and 1/4 of
their size blurred 0.15, 0.25 and 0.4 of the median tile's width at 0 and 90 degrees (198), 24, 42 and 38 of 66
(27, 43 and 40 before); of those that misread 2 tiles or more than sharp, 10, 32 and 38 (12, 33 and 40): the ones
no longer flagged are 7.jpg at 1/2 (its median tile 29 pixels wide) blurred 0.15 and 0.25 (12-50 misread), and the
demo photo at 1/2 (36 pixels) blurred 0.4 (7 and 14): at 2 times each tile looked softer than it is, sharp or
blurred. Judged from 32 at 10 pixels (every tile shrunk at least 3.2 times) the sharp ones were said fine too, but
the full-size blurred lost 6 (5 px: 2 of 4, 9 px: 12 of 16) and those scaled 23."""
SMALL_MIN = 16
"""A photo with fewer than :data:`JUDGE_FROM` tiles :data:`JUDGE_MIN` wide (a wide shot of a table) is judged on its
face-up tiles at least this wide, each shrunk to :data:`SMALL_WIDTH`, against the same lines; where it has fewer
than :data:`JUDGE_FROM` of those, though it has tiles, they are too small to judge or to read reliably:
:data:`SMALL_EN` says so. Those photos were not judged at all: a shaken or grey wide shot went unsaid. The dev
photos and the demo photo at full size and scaled to 1/2, 1/3 and 1/4 (``cv2.INTER_AREA``; 44 photos) left 22
with too few tiles 32 wide: 19, their tiles 18-29 pixels wide, judged so, none flagged (sharpness 2.83-4.73,
colour 14.8-53.9), and 3 too small (3.png at 1/3 and 1/4, tiles 9-12 pixels, which read 5 of its 40 labelled tiles
worse than at full size; 7.jpg at 1/4, 15 pixels, as well as at full). Made grey or with saturation cut to 10%, all 39 judged flagged (at 30%, 4 of 19 at 1/4 size, where the
colour fades with the scaling); blurred with line kernels 0.4 of a tile's width long (0 and 90 degrees), 22 of 30
(all misread at least 2 tiles more), 0.25, 22 of 38 (19 of the 31 that misread 2 or more), 0.15, 2 of 40."""
SMALL_WIDTH = 10
"""The width (pixels; height 4/3 of it) a tile from :data:`SMALL_MIN` to :data:`JUDGE_MIN` wide is shrunk to before it
is judged (:data:`SMALL_MIN`): shrunk at least 1.6 times, so that its own softness does not count (at 8 pixels
the blurred photos flagged overlapped the sharp ones: sharp 4.11-6.76, blurred that misread a tenth of their tiles
up to 6.56); at 10 the sharp ones gave 2.85-4.73 (the demo photo, softened with a 1.5-pixel Gaussian blur, 3.72-4.94
from 16 to 32 pixels wide), so :data:`SHAKEN_BELOW` keeps 30% to spare, as it does for the large tiles."""
SHAKEN_BELOW = 2.0
"""A photo is shaken when the median over its tiles of the variance of the Laplacian of the crop (grey, at
:data:`JUDGE_WIDTH`) over the variance of the crop itself is under this: a blur takes away the fine strokes, which
the Laplacian measures, far more than the contrast between face and ink (from :data:`SURELY_SHAKEN` to this, only
where the reading doubts itself: :data:`DOUBTFUL_SHARE`). The ten dev photos (6 sets) gave 2.89 to
4.61 and the bundled demo photo 3.26, so 2.0 keeps 30% of the softest one's value to spare; 39 held-out rendered
scenes without blur (36 table frames, 1280 x 720, and 3 photos) gave at least 2.05. The eleven photos blurred with
line kernels (``cv2.filter2D``; 3, 5, 9, 15 and 25 pixels long at 0, 45, 90 and 135 degrees: 220 photos) misread
at least one tile more than sharp in 102 cases, of which 90 were flagged (81 of the 91 that misread a tenth of
their tiles more), with 1,089 of the 1,125 tiles the blur cost; 13 of the 118 read as well as sharp were flagged
too. By length: 3 px, none flagged (none misread); 5 px, 3 of 44 (1 misread, flagged); 9 px, 16 (22 misread, 12 of
them flagged: 1 to 7 tiles each); 15 px, 42 (38 misread, 37 flagged); 25 px, 42 (41 misread, 40 flagged, one with
too few tiles found to judge; judged from :data:`JUDGE_MIN` = 32 pixels wide, 88 of the 102, two 25-pixel streaks
leaving too few tiles that wide). At 1.9: 87 of the 102 misread and 12 read right; at 2.1: 90 and 21. Judged at 24
pixels wide (threshold 1.3) 96 of the 102 were flagged, and 15 of the 39 rendered scenes without blur."""
GREY_BELOW = 7.0
"""A photo is black and white when the most colourful tenth of its tiles (the 90th percentile over the tiles) show
less colour than this: per tile, the 99th percentile of the distance in CIELAB a* b* (OpenCV's 8-bit units) of its
pixels from the mean colour of all the judged tiles' pixels of the same lightness (L* in steps of
:data:`LIGHTNESS_STEP`). Measured from the tile's own pixels of that lightness (as it was), a tile in one ink, a
red 中 or a green 發, has one colour at each lightness as a sepia one does: dev photo 2-2 (中, 發, 白) scaled to
0.17-0.32 of its size and cut tight to its tiles measured 5.9-6.8 and was called black and white (a change
review); now 13.2 and more. The dev photos and the demo photo at 1, 1/2, 1/3 and 1/4 of their size and from 0.15
to 0.60 in steps of 0.01 (452 judged) measured 5.9-62.0 so (3 flagged), now 13.2-66.7 (none); saved as JPEG q60
(148), 10.2-55.9 (9 flagged), now 17.3-56.6 (none); at 1 to 1/4, made grey (0.0), at 10% saturation (2.9-5.3) and in
sepia saved as JPEG (6.3-12.7, by :data:`CONTRAST_BELOW`) all 42 still flagged; at 30% saturation 8.3-16.7, 1 of 42
flagged (5 before), under a warm or tungsten light or dimmed to 0.45 at least 30.5 (none), and at 30% saturation
so lit 5.5-20.1 (3, 3 and 1 of 42 flagged; 3, 3 and 5 before). The figures below are those of the
measure per tile. A photo of one hue has one colour at each lightness (its tint fades with the light: a sepia tile's ink is a darker
shade of its face's colour), so it shows little, while red, green and blue ink of one lightness differ; a warm lamp
or a colour cast moves every colour the same way and keeps those differences. Read as ``companion read`` reads
them, the ten dev photos and the demo photo gave 28.9-56.5; under warm, tungsten, blue and green casts and a lamp,
23.1-67.8; made grey 0.0, given a strong single tint 1.1-1.6, in sepia 1.2-11.2 (saved as JPEG 6.5-10.5). With their
saturation cut to 30% (a faded photo, still in colour) they measure 8.7-17.3 (saved as JPEG 8.5-16.7, and dimmed to
half 8.3-13.9) and read 2 of their 231 labelled tiles worse; cut to 20%, 6.0-10.9 (5 worse); to 10%, 3.0-5.1 (11
worse); made grey, 18 worse. The line stood at 16 and called 10 of the 11 photos at 30% black and white; at 7 those
at 0-10% are (all 22, plain and JPEG) and none at 30% (of 33). A one-tint photo that shows more than this is told by
:data:`CONTRAST_BELOW`. The tiles are judged at one exposure (:func:`exposed`): dimmed to 0.45 of their
brightness, or to 0.5 in a warm light, the eleven measured 21.3-62.6 (none flagged), dimmed sepia 1.3-1.9."""
ONE_TINT_BELOW = 16.0
"""A photo showing less colour than this (:data:`GREY_BELOW`'s measure) whose :data:`CONTRAST_BELOW` is low too is
of one tint (sepia, a strong colour filter) and said to be black and white ..."""
CONTRAST_BELOW = 4.0
"""... where the 90th percentile over its tiles of each tile's 99th percentile of the distance over its median (+1)
is under this: a faded photo's colour lies in its inks, a few pixels far from the rest, while a one-tint photo's
JPEG noise and clipped highlights spread over every pixel. The dev photos and the demo photo in sepia saved as JPEG
(what a phone's filter saves) measured 2.8-3.7 (the colour 6.5-10.5: all 11 flagged, and they read 7 tiles worse);
with their saturation cut to 30%, 4.2-8.5 (plain, JPEG and dimmed: none of 33 flagged); in colour 10.8-20.1, under
casts and a dim warm lamp at least 6.7. Sepia not saved as JPEG measured 0.9-5.6: 3 of those 11 are flagged (the
demo photo's at 1.2 by its colour), the 8 others not, where the line at 16 flagged them all: no line of either
measure told them from the faded photos (measured on the same 11, a change review): :data:`BALANCED_BELOW` does."""
STREAK_WIDTH = 20
"""The width (pixels; height 4/3 of it) a tile judged on :data:`SMALL_MIN` is brought to for :data:`STREAKED_BELOW`,
of which the middle (:data:`STREAK_INNER` cut off each side) is measured."""
STREAK_INNER = 0.15
"""The share of a tile's crop cut off each side for :data:`STREAKED_BELOW`: its outline (a tile is 3:4, its long
sides weigh more) and its neighbours' edges."""
STREAKED_BELOW = 0.15
"""(Measured now as :data:`STREAK_WAYS` says; what follows is the first measure's record.) A wide shot (its tiles judged from :data:`SMALL_MIN`) is shaken too when its tiles' edges run one way: the two
eigenvalues of the sum over its tiles of each tile's gradient structure tensor (Sobel, at :data:`STREAK_WIDTH`, the
middle only, over its trace, turned by the tile's angle into the photo's directions: a shake streaks the photo one
way, whichever way each tile lies), the smaller over the larger, is under this (1: edges every way alike). A motion
blur leaves the edges along it and takes those across it, while a sharp tile has strokes both ways. Small tiles
shrunk to :data:`SMALL_WIDTH` keep a streak of a few pixels, and :data:`SHAKEN_BELOW` missed many: the demo photo at
0.3 of its size (tiles 21 pixels wide) streaked 9-11 pixels up or down measured 3.0-3.4 there and misread 6-8 of its
19 tiles; here 0.13-0.14 (sharp 0.72). Streaked across, 0.28-0.35 (sharpness 2.34-2.51, 12-14 misread): still not
said. The dev photos and the demo photo at 1/2, 1/3 and 1/4 of their size judged on their small tiles (21 sharp)
measured 0.23-0.93 (dev photo 2-1, one row of tiles, 0.23 and 0.24; the others at least 0.39), so 0.15 keeps 35% of
the lowest to spare (at 0.2, 13%). Blurred with line kernels (3-25 pixels, and 0.15, 0.25 and 0.4 of the tile's
width, at 0, 45, 90 and 135 degrees; 431 judged), of the 300 that misread 2 tiles or more :data:`SHAKEN_BELOW` alone
flagged 149, with this 164; of the 90 read as well as sharp, 8 and 15 (models/README.md, "Photo checks"). Not used
on the larger tiles: there it flagged 1 more of the 422 that misread, and 5 more of the 185 read right."""
STREAK_WAYS = 8
"""The directions of the photo (every 180/8 degrees) :data:`STREAKED_BELOW`'s evenness weighs: each tile's mean
square second derivative along each (Sobel at :data:`STREAK_WIDTH`, the middle only, each direction turned by the
tile's angle into the crop's), over the sum of its eight, summed over the tiles; the least direction's over the
largest's. A motion blur makes each edge across it a ramp, whose second derivative along it is nought but at its
ends, while a sharp tile's strokes bend every way. The first measure (the gradient structure tensor's eigenvalues)
kept the ramps' slopes: the demo photo at 0.3 of its size streaked 9-11 pixels across measured 0.28-0.35 (12-15 of
its 19 tiles misread) and was not said to be shaken; now 0.02-0.10. The ten dev photos and the demo photo sharp,
at 1, 1/2, 1/3, 1/4 and 0.15-0.60 of their size (528; 221 judged on small tiles) measure 0.215-0.79 (dev photo 2-1,
one row of tiles, 0.215-0.35; the others at least 0.44), saved as JPEG q60 (176; 73) 0.27-0.79 (the others at least
0.42): none flagged, as before. Blurred with line kernels 5-13 pixels long at 0, 45, 90 and 135 degrees at the
sizes where they are judged on small tiles (1,440), the 622 judged that misread 2 tiles or more than sharp were flagged 442 times before, 522
with this measure at 0.15, 567 with :data:`SOFT_AND_UNEVEN_BELOW` too (models/README.md, "Photo checks"). Bamboo alone, whose strokes
run one way, measures as low as 0.12: from :data:`SURELY_SHAKEN`'s 0.10 to 0.15 a photo is shaken only where the
reading doubts itself too."""
SOFT_AND_UNEVEN_BELOW = 0.6
"""A wide shot is shaken too when its sharpness (:data:`SHAKEN_BELOW`'s measure) times its evenness
(:data:`STREAKED_BELOW`) is under this: a streak aslant softens the tiles and runs their edges one way, each a
little (the demo photo at 0.3 streaked 9 pixels at 45 degrees: sharpness 2.07, evenness 0.15, 13 of 19 tiles
misread), while a sharp photo soft in one is even in the other: the sharp photos judged on small tiles (294, as
taken and as JPEG) measure at least 0.90 (dev photo 2-1; the others 1.0 and more), so 0.6 keeps a third to spare.
(From :data:`SURELY_SHAKEN`'s to this, only where the
reading doubts itself.) Of the 622 blurred that misread 2 or more it adds 45 (aslant 201 to 231 of 276), and 13 of the 101 read within a
tile of sharp; at 0.5, 28 and 9; at 0.7, 58 and 19 (models/README.md, "Photo checks")."""
PHOTO_STREAKED_BELOW = 0.12
"""A photo with too few tiles found to judge them one by one (none, or fewer than :data:`JUDGE_FROM` at least
:data:`SMALL_MIN` wide) is shaken when the whole photo's edges run one way: :data:`STREAK_WAYS`' measure over the
photo's every pixel as it is read (no tile to turn by: the photo's own directions), the least direction's mean square
second derivative over the largest's, is under this. A shake that blurs the tiles past finding them went unsaid: of
the dev photos and the demo photo streaked 5-13 pixels (as :data:`STREAK_WAYS` says) that misread 2 tiles or more,
715 of 1,337 had too few tiles found to judge (432 none at all) and 584 of them got no word. Sharp, at 1, 1/2, 1/3,
1/4 and 0.15-0.60 of their size and as JPEG q60 (704), they measure 0.176-0.79 (dev photo 2-1, one row of tiles,
0.176-0.38; the others at least 0.40), the held-out rendered frames (48, blurred or not) at least 0.20, so 0.12
keeps a third of the lowest to spare: it flags 399 of the 584 (271 of the 432 with no tile found; streaked across or
up and down 261 of 263, aslant, which softens every edge a little, 138 of 321) (models/README.md, "Photo checks")."""
SURELY_SHAKEN = (1.8, 0.10, 0.40)
"""``(sharpness, evenness, sharpness x evenness)``: under these a photo is shaken whatever was read; from them to
:data:`SHAKEN_BELOW`, :data:`STREAKED_BELOW` and :data:`SOFT_AND_UNEVEN_BELOW` only where the reading doubts itself
too (:data:`DOUBTFUL_SHARE`). A change review found sharp photos read right told to hold still and take them again:
dev photo 2-4 (1p-9p) at 0.45 of its size saved as JPEG q40 (a phone's or a messenger's quality), sharpness 1.95,
all nine tiles read right and surely; a 清一色 bamboo hand, whose strokes run one way (2-1's bamboo, evenness
0.144-0.157, turned a product of 0.457; the bundled bamboo pictures side by side, tiles 19-22 pixels wide, 0.12-0.14). Measured
(``cv2.INTER_AREA``, JPEG by OpenCV): the ten dev photos and the demo photo at 0.20-0.60 of their size, as taken and
as JPEG q60, q40, q30 and q25, and turned 90 degrees as taken and q40 (770): 1 flagged before (that 2-4), none now
(lowest sharpness 1.949, evenness 0.209, product 0.805); bamboo alone (2-1's runs 2-6, 1-9 and 4-8 on a plain
cloth, a hand of the dev photos' bamboo tiles cut out, and the bundled pictures' hand, their tiles 20-50 pixels
wide, turned 0, 35, 40 and 90 degrees, as taken and q40 and q30; 480): 6 before, none now (evenness 0.12 and more,
product 0.78 and more, none with a tile unsure among those under a line). Blurred with line kernels 0.15, 0.25 and
0.4 of the median tile's width at 0, 45, 90 and 135 degrees at 1/2, 1/3, 1/4 and 0.45 of their size (528): of the
418 that misread 2 tiles or more than sharp, 358 were flagged and 355 are (lost: 11.jpg at 1/4 streaked 5 pixels
at 45 and 135 degrees, 3 of 144 misread each; 9.jpg at 1/4, 3 pixels at 45, 8 of 144); of the 110 read within a tile of sharp, 78 and 68
(models/README.md, "Photo checks")."""
DOUBTFUL_SHARE = 0.1
"""A photo whose measure lies between :data:`SURELY_SHAKEN` and its line is shaken when at least this share of its
face-up tiles read is unsure (:meth:`companion.vision.read.Detections.doubtful`): a shake that costs tiles leaves
readings in doubt (the blurred photos above lost 7 of the 358 at 0.15, 3 at 0.1, none at 0.05), while every sharp
photo measured under a line read all its tiles surely; a photo of nine tiles with one unsure is doubted."""
BALANCED_BELOW = 5.0
"""A photo showing less colour than :data:`ONE_TINT_BELOW` is of one tint also when, balanced, it shows less than
this: its tiles' pixels (all of them; those clipped, a channel at :data:`CLIPPED` or more, with their neighbours, and
the black left out) multiplied channel by channel so that their mean is grey, then measured as :data:`GREY_BELOW`
measures. A colour cast multiplies each channel: balanced away, the inks keep their colours; a sepia filter makes
every pixel one brown times its lightness: balanced, it is grey. Sepia not saved as JPEG measured 1.9-3.9 (dev photo
3.png 8.3: not flagged), where :data:`CONTRAST_BELOW` flagged 3 of the 11; with their saturation cut to 30%,
7.8-16.4 (plain, JPEG, dimmed), and so faded under a warm, tungsten, blue or green light 6.9-21.5: none flagged by
it (3 of the blue and 5 of the green by :data:`CONTRAST_BELOW`, as before). The spread of hue among the coloured
pixels (1 less the length of their mean hue, weighted by saturation) told sepia (0.001-0.017, JPEG up to 0.025) from
faded photos (0.10-0.68) but not from faded photos in a warm, tungsten or green light (0.002-0.034), which it would
have called sepia (models/README.md, "Photo checks")."""
CLIPPED = 250
"""A pixel with a channel at least this bright (after :func:`exposed`) is clipped: left out of :data:`BALANCED_BELOW`,
with its neighbours (a sepia photo's clipped highlights are no longer its one brown)."""
LIGHTNESS_STEP = 4
"""The lightness (L*, OpenCV's 8-bit units) a tile's pixels are grouped by for :data:`GREY_BELOW`."""
SHAKEN_EN = "the photo looks shaken: hold still and take it again (its tiles may be misread)"
SHAKEN_ZH = "照片看起來晃到了：請拿穩再拍一次（牌可能會讀錯）"
GREY_EN = ("a black-and-white or one-colour (sepia) photo: tiles told apart by colour (such as bamboo, dots and the "
           "red dragon) may be misread; take a colour photo")
GREY_ZH = "這是黑白或單色（懷舊棕色）照片：靠顏色分辨的牌（例如綠色的條子、紅色的筒子和紅中）可能會讀錯，請拍彩色照片"
"""The black-and-white warning where no tile read is told apart by its colour (:func:`grey_words`)."""
SMALL_EN = "the tiles are too small in the photo to be read reliably: move closer and take it again"
SMALL_ZH = "照片裡的牌太小，無法可靠辨識：請靠近一點再拍一次"

# the black-and-white warning naming what may be misread in the photo: the groups read whose colours tell them apart
GREY_OF_EN = "a black-and-white or one-colour (sepia) photo: {tiles} may be misread; take a colour photo"
GREY_OF_ZH = "這是黑白或單色（懷舊棕色）照片：{tiles}可能會讀錯，請拍彩色照片"
GREY_GROUPS: dict[str, tuple[tuple[str, ...], str]] = {
    "suits": (("bamboo", "dots"), "條子和筒子"),
    "dragons": (("the red and green dragons",), "紅中和青發"),
    "flowers": (("the flowers",), "花牌"),
}
"""``{group: (English items, Chinese)}``: the tiles a grey photo may misread, in the order they are named: a bamboo's green
and a dot's red and blue, the red 中 and green 發 (the white dragon and the winds are in black or blue ink, told by
their shape) and the flowers' coloured pictures and numbers (:func:`colour_groups`)."""

# a photo in which the reader found no tile at all: said with what may be why (each cure the same), none claimed;
# a shake, where the whole photo measures one (:data:`PHOTO_STREAKED_BELOW`), is said besides
NONE_FOUND_EN = ("no tile was found in the photo: it may be blurred, too dark, taken from too far, or not of mahjong "
                 "tiles; take it again from above, close and held still, in good light")
NONE_FOUND_ZH = "照片裡沒找到牌：可能是照片模糊、太暗、離得太遠，或拍的不是麻將牌；請從上方靠近、拿穩、在亮處再拍一次"


@dataclass(frozen=True, slots=True)
class PhotoQuality:
    """What :func:`photo_quality` measured: ``sharpness`` (see :data:`SHAKEN_BELOW`), ``colour`` (see
    :data:`GREY_BELOW`) and its ``contrast`` (see :data:`CONTRAST_BELOW`), ``None`` where too few tiles were
    judged; ``balanced`` (see :data:`BALANCED_BELOW`), measured only where it decides (a colour from
    :data:`GREY_BELOW` to :data:`ONE_TINT_BELOW` and a contrast from :data:`CONTRAST_BELOW`); ``evenness`` (see
    :data:`STREAKED_BELOW`), measured on a wide shot's small tiles only; ``too_small``: the photo has tiles, but too few at least
    :data:`SMALL_MIN` wide to judge; ``groups``: the groups of :data:`GREY_GROUPS` among the tiles read, which the
    black-and-white warning names (:func:`grey_words`); ``photo_evenness`` (see :data:`PHOTO_STREAKED_BELOW`), measured
    on the whole photo where too few tiles were judged; ``none_found``: the reader found no tile at all; ``unsure``:
    the share of the face-up tiles read that were read unsure, which decides a measure a little under its line
    (:data:`SURELY_SHAKEN`, :data:`DOUBTFUL_SHARE`)."""

    sharpness: float | None
    colour: float | None
    contrast: float | None = None
    too_small: bool = False
    evenness: float | None = None
    balanced: float | None = None
    groups: tuple[str, ...] = ()
    photo_evenness: float | None = None
    none_found: bool = False
    unsure: float = 0.0

    @property
    def shaken(self) -> bool:
        if self.sharpness is None:  # too few tiles to judge: the whole photo is (:data:`PHOTO_STREAKED_BELOW`)
            return self.photo_evenness is not None and self.photo_evenness < PHOTO_STREAKED_BELOW
        # a measure a little under its line is a shake only where the reading doubts itself (:data:`SURELY_SHAKEN`)
        doubted = self.unsure >= DOUBTFUL_SHARE
        sure_sharp, sure_even, sure_both = SURELY_SHAKEN
        if self.sharpness < sure_sharp or (self.sharpness < SHAKEN_BELOW and doubted):
            return True
        if self.evenness is None:
            return False
        both = self.sharpness * self.evenness
        return (self.evenness < sure_even or both < sure_both
                or (doubted and (self.evenness < STREAKED_BELOW or both < SOFT_AND_UNEVEN_BELOW)))

    @property
    def greyscale(self) -> bool:
        if self.colour is None:
            return False
        if self.colour < GREY_BELOW:
            return True
        return self.colour < ONE_TINT_BELOW and (
            (self.contrast is not None and self.contrast < CONTRAST_BELOW)
            or (self.balanced is not None and self.balanced < BALANCED_BELOW))

    def warnings(self) -> list[tuple[str, str, str]]:
        """``(code, English, Chinese)`` for each thing wrong with the photo: ``no_tiles`` (none found),
        ``too_small``, ``shaken``, ``greyscale``."""
        out = []
        if self.none_found:
            out.append(("no_tiles", NONE_FOUND_EN, NONE_FOUND_ZH))
        if self.too_small:
            out.append(("too_small", SMALL_EN, SMALL_ZH))
        if self.shaken:
            out.append(("shaken", SHAKEN_EN, SHAKEN_ZH))
        if self.greyscale:
            out.append(("greyscale", *grey_words(self.groups)))
        return out

    def to_json(self) -> dict[str, object]:
        """``{"quality": {"sharpness", "colour", "evenness", "photo_evenness"}, "warnings": [{"code", "message",
        "message_zh"}]}``: the measures (rounded; null where too few tiles were judged, the evenness where the tiles
        were large enough to judge without it, and the whole photo's evenness, :data:`PHOTO_STREAKED_BELOW`, where
        they were judged) and what is wrong with the photo, empty for a photo fit to be read (the fields
        ``companion read --json`` and ``companion score --json`` give). A wide shot streaked one way is shaken
        by its evenness (or the evenness times the sharpness) with a sharpness over the line: the evenness says
        why."""
        return {"quality": {"sharpness": None if self.sharpness is None else round(self.sharpness, 3),
                            "colour": None if self.colour is None else round(self.colour, 1),
                            "evenness": None if self.evenness is None else round(self.evenness, 3),
                            "photo_evenness": None if self.photo_evenness is None else round(self.photo_evenness, 3)},
                "warnings": [{"code": c, "message": en, "message_zh": zh} for c, en, zh in self.warnings()]}


def photo_quality(image: np.ndarray, dets: Detections) -> PhotoQuality:
    """How sharp and how colourful the face-up tiles of ``dets`` (a :class:`companion.vision.read.Detections` of
    ``image``, BGR uint8, in its pixels) are: :class:`PhotoQuality`. The colour is measured on every other pixel of
    each crop (each way), the tiles' levels stretched to one exposure (:func:`exposed`: a dim photo's colours are
    faint)."""
    known = dets.face_up & (dets.kind != int(Tile.UNKNOWN))
    width = dets.obb[:, 2:4].min(axis=1)
    up, judged_at = np.flatnonzero(known & (width >= JUDGE_MIN)), JUDGE_WIDTH
    if len(up) < JUDGE_FROM:  # a wide shot: its smaller tiles judged (:data:`SMALL_MIN`)
        up, judged_at = np.flatnonzero(known & (width >= SMALL_MIN)), SMALL_WIDTH
    if len(up) < JUDGE_FROM:
        # (too small: most of its tiles, not a few specks beside two large ones)
        small = int(known.sum()) >= JUDGE_FROM and float(np.median(width[known])) < SMALL_MIN
        with one_cv_thread():
            whole = _photo_evenness(image)
        return PhotoQuality(None, None, too_small=small, photo_evenness=whole, none_found=len(dets) == 0)
    unsure = float(dets.doubtful()[known].mean())  # (the reading's own doubt: :data:`DOUBTFUL_SHARE`)
    if len(up) > JUDGE_AT_MOST:  # a sample, spread over the photo's tiles (:data:`JUDGE_AT_MOST`)
        up = up[np.linspace(0, len(up) - 1, JUDGE_AT_MOST).round().astype(np.int64)]
    widths = judge_widths(width[up]) if judged_at == JUDGE_WIDTH else np.full(len(up), SMALL_WIDTH, np.int64)
    with one_cv_thread():  # (small images: OpenCV's threads cost more than they give)
        measured = _measured(upright_crops(image, dets.obb[up]), widths,
                             dets.obb[up, 4] if judged_at == SMALL_WIDTH else None)
    return replace(measured, groups=colour_groups(dets.kind[known]), unsure=unsure)


def colour_groups(kinds: np.ndarray) -> tuple[str, ...]:
    """The groups of :data:`GREY_GROUPS` (in its order) that tiles of ``kinds`` (:class:`companion.tiles.Tile`
    values, as read) fall in: what a black-and-white copy of their photo may misread."""
    kinds = np.asarray(kinds)
    found = {"suits": bool(((kinds >= int(Tile.P1)) & (kinds <= int(Tile.S9))).any()),  # (characters: by shape)
             "dragons": bool(((kinds == int(Tile.RED)) | (kinds == int(Tile.GREEN))).any()),
             "flowers": bool(((kinds >= int(Tile.F1)) & (kinds <= int(Tile.F8))).any())}
    return tuple(g for g in GREY_GROUPS if found[g])


def grey_words(groups: tuple[str, ...]) -> tuple[str, str]:
    """The black-and-white warning ``(English, Chinese)`` for a photo whose tiles read fall in ``groups``
    (:func:`colour_groups`): what it may misread by name, or, where none was read (winds, the white dragon and
    characters only, told by their shape), :data:`GREY_EN`, true of any photo."""
    named = [GREY_GROUPS[g] for g in GREY_GROUPS if g in groups]
    if not named:
        return GREY_EN, GREY_ZH
    en = [e for items, _ in named for e in items]
    # "bamboo, dots and the flowers"; a comma before the last "and" where an item has its own ("bamboo, dots, the
    # red and green dragons, and the flowers"), so that the list reads as one
    last = ", and " if len(en) > 2 and any(" and " in e for e in en[:-1]) else " and "
    listed = en[0] if len(en) == 1 else ", ".join(en[:-1]) + last + en[-1]
    return GREY_OF_EN.format(tiles=listed), GREY_OF_ZH.format(tiles="、".join(z for _, z in named))


def judge_widths(widths: np.ndarray) -> np.ndarray:
    """The width (pixels) each tile at least :data:`JUDGE_MIN` wide (``widths``, pixels) is shrunk to before its
    sharpness is judged: :data:`SMALL_WIDTH` at :data:`JUDGE_MIN`, rising to :data:`JUDGE_WIDTH` at
    :data:`JUDGE_FULL` (:data:`JUDGE_FULL`)."""
    rise = (np.asarray(widths, np.float64) - JUDGE_MIN) * (JUDGE_WIDTH - SMALL_WIDTH) / (JUDGE_FULL - JUDGE_MIN)
    return np.clip(np.round(SMALL_WIDTH + rise), SMALL_WIDTH, JUDGE_WIDTH).astype(np.int64)


def exposed(pixels: np.ndarray) -> np.ndarray:
    """The tiles' ``pixels`` (BGR uint8) with their levels multiplied so that their brightest parts reach
    :data:`companion.vision.read.DARK_TO` (a tile's white), as they are where they do already or are black: a
    photo's colours fade with its light (the distance :data:`GREY_BELOW` measures halves with it), and a colour photo
    taken in dim light is no black-and-white one. Stretched only where the whole photo was dark (the reader's
    :func:`companion.vision.read.levels_stretched`), dev photo 2-2 at 0.55 of its brightness measured 15.4 and was
    flagged (a change review), 28.9 at its full."""
    return levels_stretched(pixels, below=DARK_TO)


def _measured(crops: list[np.ndarray], judged_at: int | np.ndarray = JUDGE_WIDTH,
              angles: np.ndarray | None = None) -> PhotoQuality:
    """:func:`photo_quality` of the tiles' upright ``crops``, their sharpness judged ``judged_at`` pixels wide (one
    width for all, or one a crop); with the tiles' ``angles`` (degrees, as :class:`companion.vision.read.Detections`
    gives them: a wide shot's, judged on :data:`SMALL_MIN`) their evenness too (:data:`STREAKED_BELOW`)."""
    sharp = []
    for crop, at in zip(crops, np.broadcast_to(np.asarray(judged_at), (len(crops),)), strict=True):
        grey = cv2.resize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (int(at), int(at) * 4 // 3),
                          interpolation=cv2.INTER_AREA).astype(np.float32)
        sharp.append(float(cv2.Laplacian(grey, cv2.CV_32F).var() / (grey.var() + 1e-6)))
    evenness = _evenness(crops, angles) if angles is not None else None
    pixels = [c[::2, ::2].reshape(-1, 3) for c in crops]  # all the tiles in one row of pixels: one conversion
    ends = np.cumsum([len(p) for p in pixels])[:-1]
    lab = cv2.cvtColor(exposed(np.concatenate(pixels)[None]), cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    # each pixel's colour is measured from the mean colour of the photo's tiles' pixels of its lightness
    off = _off_lightness(lab, np.zeros(len(lab), np.int64), 1)
    tiles = [np.percentile(tile, (50, 99)) for tile in np.split(off, ends)]
    colour = [float(p99) for _, p99 in tiles]
    contrast = [float(p99 / (p50 + 1)) for p50, p99 in tiles]
    shown, spread = float(np.percentile(colour, 90)), float(np.percentile(contrast, 90))
    # (balanced only where it decides: it costs 15-60 ms, every pixel of the tiles)
    balanced = _balanced(crops) if GREY_BELOW <= shown < ONE_TINT_BELOW and spread >= CONTRAST_BELOW else None
    return PhotoQuality(float(np.median(sharp)), shown, spread, evenness=evenness, balanced=balanced)


def _off_lightness(lab: np.ndarray, tile: np.ndarray, tiles: int) -> np.ndarray:
    """Each CIELAB pixel's distance in a* b* from the mean of its ``tile``'s pixels of its lightness (in steps of
    :data:`LIGHTNESS_STEP`)."""
    levels = 256 // LIGHTNESS_STEP
    group = tile * levels + (lab[:, 0] // LIGHTNESS_STEP).astype(np.int64)
    count = np.maximum(np.bincount(group, minlength=tiles * levels), 1)
    mean_a = np.bincount(group, lab[:, 1], tiles * levels) / count
    mean_b = np.bincount(group, lab[:, 2], tiles * levels) / count
    return np.asarray(np.hypot(lab[:, 1] - mean_a[group], lab[:, 2] - mean_b[group]))


def _balanced(crops: list[np.ndarray]) -> float | None:
    """:data:`BALANCED_BELOW`'s measure of the tiles' upright ``crops`` (every pixel: every other one each way
    measured 5.6 on a faded photo under tungsten light, 6.9 so), ``None`` where too few are neither clipped nor
    black."""
    pixels = exposed(np.concatenate([c.reshape(-1, 3) for c in crops])[None])[0]
    lit = np.minimum(np.minimum(pixels[:, 0], pixels[:, 1]), pixels[:, 2]) > 8  # (the black: its colour is noise)
    clipped = (np.maximum(np.maximum(pixels[:, 0], pixels[:, 1]), pixels[:, 2]) >= CLIPPED).astype(np.uint8)
    kept, tile, start = [], [], 0
    for crop in crops:  # (channel by channel above: numpy's reductions over 3 values are slow)
        size = crop.shape[0] * crop.shape[1]
        near = cv2.dilate(clipped[start:start + size].reshape(crop.shape[:2]), np.ones((3, 3), np.uint8))
        keep = pixels[start:start + size][(near.reshape(-1) == 0) & lit[start:start + size]]
        start += size
        if len(keep) >= 10:
            kept.append(keep)
            tile.append(np.full(len(keep), len(kept) - 1))
    if not kept:
        return None
    flat = np.concatenate(kept).astype(np.float32)
    mean = flat.mean(axis=0)
    balanced = np.clip(flat * (mean.mean() / np.maximum(mean, 1)), 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(balanced[None], cv2.COLOR_BGR2LAB)[0].astype(np.float32)
    off = _off_lightness(lab, np.concatenate(tile), len(kept))
    ends = np.cumsum([len(k) for k in kept])[:-1]
    return float(np.percentile([np.percentile(o, 99) for o in np.split(off, ends)], 90))


def _evenness(crops: list[np.ndarray], angles: np.ndarray) -> float:
    """:data:`STREAKED_BELOW`'s measure of the tiles' upright ``crops`` lying at ``angles`` (degrees counter-clockwise
    of the tile's top from the photo's up): over :data:`STREAK_WAYS` directions of the photo, the least over the
    largest of the tiles' mean square second derivative along each (each tile's shares, summed)."""
    energy = np.zeros(STREAK_WAYS)
    width, height = STREAK_WIDTH, STREAK_WIDTH * 4 // 3
    x0, y0 = round(width * STREAK_INNER), round(height * STREAK_INNER)
    ways = np.radians(np.arange(STREAK_WAYS) * 180 / STREAK_WAYS)
    photo = np.stack([np.cos(ways), np.sin(ways)])  # (each direction a column, in the photo's x and y)
    for crop, degrees in zip(crops, angles, strict=True):
        grey = cv2.resize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (width, height),
                          interpolation=cv2.INTER_AREA).astype(np.float64)
        xx, yy, xy = (cv2.Sobel(grey, cv2.CV_64F, dx, dy, ksize=3)[y0:height - y0, x0:width - x0]
                      for dx, dy in ((2, 0), (0, 2), (1, 1)))
        t = np.radians(float(degrees))
        turn = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])  # the crop's x and y in the photo
        c, s = turn.T @ photo  # each direction of the photo in the crop's x and y
        # the mean square of the second derivative along (c, s), c² xx + 2cs xy + s² yy, expanded
        along = (c ** 4 * np.mean(xx * xx) + s ** 4 * np.mean(yy * yy) + 4 * c * c * s * s * np.mean(xy * xy)
                 + 2 * c * c * s * s * np.mean(xx * yy) + 4 * c ** 3 * s * np.mean(xx * xy)
                 + 4 * c * s ** 3 * np.mean(yy * xy))
        if along.sum() <= 1e-6:  # (a blank crop: no edges to weigh)
            continue
        energy += along / along.sum()
    return float(energy.min() / energy.max()) if energy.max() > 0 else 1.0


def _photo_evenness(image: np.ndarray) -> float | None:
    """:data:`PHOTO_STREAKED_BELOW`'s measure of ``image`` (BGR uint8, every pixel): over :data:`STREAK_WAYS`
    directions of the photo, the least over the largest of its mean square second derivative along each; ``None``
    for a photo too small or too blank to measure."""
    if image.size == 0 or min(image.shape[:2]) < 3:
        return None
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    xx, yy, xy = (cv2.Sobel(grey, cv2.CV_32F, dx, dy, ksize=3) for dx, dy in ((2, 0), (0, 2), (1, 1)))
    means = {k: float(np.mean(a * b, dtype=np.float64))
             for k, (a, b) in {"xx": (xx, xx), "yy": (yy, yy), "xy": (xy, xy), "xxyy": (xx, yy), "xxxy": (xx, xy),
                               "yyxy": (yy, xy)}.items()}
    ways = np.radians(np.arange(STREAK_WAYS) * 180 / STREAK_WAYS)
    c, s = np.cos(ways), np.sin(ways)
    # the mean square of the second derivative along (c, s), c² xx + 2cs xy + s² yy, expanded (as :func:`_evenness`)
    along = (c ** 4 * means["xx"] + s ** 4 * means["yy"] + 4 * c * c * s * s * means["xy"]
             + 2 * c * c * s * s * means["xxyy"] + 4 * c ** 3 * s * means["xxxy"] + 4 * c * s ** 3 * means["yyxy"])
    return float(along.min() / along.max()) if along.max() > 1e-6 else None
