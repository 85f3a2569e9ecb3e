"""Images are decoded by Pillow everywhere: recipe scripts, the data analysis and the digits example."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from automind.analysis import _image_size
from automind.examples import png_gray
from automind.recipes import runtime


def test_png_round_trip_through_the_recipe_reader(tmp_path):
    rows = [[(7 * r + 13 * c) % 256 for c in range(9)] for r in range(4)]
    path = tmp_path / "a.png"
    path.write_bytes(png_gray(rows))
    img = runtime.read_image(path)
    assert img.dtype == np.float32 and img.tolist() == np.asarray(rows, dtype=np.float32).tolist()


@pytest.mark.parametrize("fmt", ["JPEG", "BMP", "GIF", "PPM", "TIFF"])
def test_other_formats_read_as_grey_and_sized_from_the_header(tmp_path, fmt):
    rgb = np.zeros((6, 10, 3), dtype=np.uint8)
    rgb[:, 5:] = (200, 40, 40)
    path = tmp_path / f"x.{fmt.lower()}"
    Image.fromarray(rgb).save(path, format=fmt)
    img = runtime.read_image(path)
    assert img.shape == (6, 10) and img[:, :3].max() < 20 and img[:, 7:].min() > 60  # JPEG blurs the edge
    assert _image_size(path) == "10x6"


def test_npy_is_read_with_numpy(tmp_path):
    np.save(tmp_path / "x.npy", np.ones((3, 4, 3)))
    assert runtime.read_image(tmp_path / "x.npy").shape == (3, 4)
