"""A PR table says at which depth (plies) its figures were found, and never adds up analyses of different depths:
a division whose matches were analysed at 0 and at 2 plies shows one table per depth, each named."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.analysis.selectors import depth_label
from tests.games.analysis.made_up import played_division, store_analysis

pytestmark = pytest.mark.django_db


def test_depth_labels() -> None:
    assert [depth_label(n) for n in (0, 1, 2, 3)] == ["0-ply", "1-ply", "2-ply (world class)", "3-ply"]


def test_one_table_per_depth_each_named(
    division_of: Any, as_director: Any, drive: Any, settings: Any, client: Any
) -> None:
    division, (shallow, deep) = played_division(division_of, as_director, drive, settings)
    store_analysis(shallow, plies=0, errors=(2.0, 1.0))
    store_analysis(deep, plies=2, errors=(0.4, 0.8))
    slug = f"{division.event.slug}/{division.slug}"
    for url in (f"/events/{slug}/pr/", f"/events/{division.event.slug}/pr/"):
        page = client.get(url).content.decode()
        assert "analysed at different depths, whose figures do not compare: one table per depth" in page
        headings = re.findall(r'<h2 id="pr-depth-\d+">([^<]*)</h2>', page)
        assert headings == ["Analysed at 0-ply", "Analysed at 2-ply (world class)"]
        tables = page.split('<section class="pr-depth"')[1:]
        pr_cells = [re.findall(r'</th>\s*<td data-label="PR">([\d.]+)</td>', t) for t in tables]
        assert pr_cells == [["5.00", "10.00"], ["2.00", "4.00"]]
    api = client.get(f"/api/events/{division.event.slug}/divisions/{division.slug}/pr/").json()
    assert [(r["plies"], r["pr"]) for r in api["rows"]] == [(0, 5.0), (0, 10.0), (2, 2.0), (2, 4.0)]


def test_a_table_of_one_depth_says_which(
    division_of: Any, as_director: Any, drive: Any, settings: Any, client: Any
) -> None:
    division, (first, second) = played_division(division_of, as_director, drive, settings)
    store_analysis(first, plies=2, errors=(2.0, 1.0))
    store_analysis(second, plies=2, errors=(0.4, 0.8))
    page = client.get(f"/events/{division.event.slug}/{division.slug}/pr/").content.decode()
    assert re.findall(r'<h2 id="pr-depth-\d+">([^<]*)</h2>', page) == ["Analysed at 2-ply (world class)"]
    assert "different depths" not in page
    match = client.get(f"/matches/{first.pk}/").content.decode()
    assert "at 2-ply (world class)." in match
