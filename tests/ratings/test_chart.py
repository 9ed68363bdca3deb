"""The history chart's geometry (pure: no database)."""

from roboracer.ratings.chart import HEIGHT, PAD_BOTTOM, PAD_LEFT, PAD_TOP, WIDTH, history_chart


def _points(chart):
    return [tuple(map(float, pair.split(","))) for pair in chart["points"].split()]


def test_no_history_no_chart():
    assert history_chart(start=1000, history=[]) is None


def test_points_run_left_to_right_and_higher_ratings_sit_higher():
    history = [{"at": f"2026-01-0{day}T00:00:00+00:00", "rating": rating}
               for day, rating in ((1, 1138), (2, 1050), (3, 1200))]
    chart = history_chart(start=1000, history=history)
    points = _points(chart)
    assert len(points) == 4 and len(chart["dots"]) == 3
    xs = [x for x, _ in points]
    assert xs == sorted(xs) and xs[0] == PAD_LEFT and xs[-1] == WIDTH - 10
    ys = {value: y for (_, y), value in zip(points, [1000, 1138, 1050, 1200], strict=True)}
    assert ys[1200] == PAD_TOP and ys[1000] == HEIGHT - PAD_BOTTOM  # the highest at the top, the lowest at the bottom
    assert ys[1138] < ys[1050]
    assert (chart["high"], chart["low"], chart["first"], chart["last"]) == (1200, 1000, 1000, 1200)
    assert [dot["rating"] for dot in chart["dots"]] == [1138, 1050, 1200]


def test_a_flat_history_is_drawn_in_the_middle_of_a_band():
    chart = history_chart(start=1032, history=[{"at": "2026-01-01T00:00:00+00:00", "rating": 1032}])
    (_, y0), (_, y1) = _points(chart)
    assert y0 == y1 and PAD_TOP < y0 < HEIGHT - PAD_BOTTOM
    assert (chart["high"], chart["low"]) == (1042, 1022)


def test_the_axis_ends_are_dates_and_each_point_knows_its_day_and_change():
    history = [{"at": "2026-01-03T10:00:00+00:00", "rating": 1040}, {"at": "2026-02-14T18:30:00+00:00", "rating": 1010}]
    chart = history_chart(start=1000, history=history)
    assert (chart["first_day"], chart["last_day"]) == ("3 Jan 2026", "14 Feb 2026")
    assert [(d["number"], d["day"], d["rating"], d["change"]) for d in chart["dots"]] == [
        (1, "3 Jan 2026", 1040, 40), (2, "14 Feb 2026", 1010, -30)]
    for dot in chart["dots"]:  # the hover label stays inside the chart
        assert PAD_LEFT <= dot["label_x"] - 80 and dot["label_x"] + 80 <= WIDTH - 10
        assert 0 < dot["label_y"] < HEIGHT
