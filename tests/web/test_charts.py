"""Chart at a glance (``smart_docgemma.web.charts``): trend plots, range flags, lab order.

What a clinician sees in the sidebar: a sparkline that rises when the values rise
and stays inside its 132×36 box, a shaded normal band only when the unit matches
the reference interval (UCUM ``mL/min/{1.73_m2}`` and plain ``mL/min/1.73m2`` are
the same unit), a high/low flag on the latest value, the labs that matter first
(K+, eGFR, creatinine, …) and a "N more" count instead of an endless list.
"""
from __future__ import annotations

from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient, ChartPoint, ChartProblem, ChartSeries
from smart_docgemma.web.charts import HEIGHT, LAB_PRIORITY, MAX_LABS, PAD, WIDTH, display_unit, glance, sparkline, trend

NOBODY = ChartPatient(id=None)


def series(code, values, unit="mmol/L", name=None, count=None):
    points = tuple(ChartPoint(f"2024-0{i + 1}-01", v, f"Observation/{code}-{i}") for i, v in enumerate(values))
    return ChartSeries(code=code, name=name or code, unit=unit, count=len(values) if count is None else count,
                       direction="↑", series=points, latest=points[-1])


def coords(plot):
    return [tuple(map(float, pair.split(","))) for pair in plot.points.split()]


def test_sparkline_needs_two_values():
    assert sparkline([]) is None
    assert sparkline([4.2]) is None


def test_sparkline_spans_the_box_and_rises_with_the_values():
    plot = sparkline([1, 2, 3, 4])
    xy = coords(plot)
    assert [x for x, _ in xy] == [PAD, 45.3, 86.7, WIDTH - PAD]  # evenly spaced, edge to edge
    ys = [y for _, y in xy]
    assert ys == sorted(ys, reverse=True)  # y grows downwards: rising values climb
    assert all(PAD <= y <= HEIGHT - PAD for y in ys)
    assert plot.last == xy[-1] and (plot.width, plot.height) == (WIDTH, HEIGHT)
    assert plot.band is None


def test_flat_series_is_a_level_line_in_the_middle():
    for values in ([5, 5, 5], [0, 0]):
        ys = {y for _, y in coords(sparkline(values))}
        assert ys == {HEIGHT / 2}


def test_band_covers_the_reference_range_and_in_range_points():
    plot = sparkline([4.0, 4.5], 3.5, 5.1)
    top, height = plot.band
    assert height > 0
    assert all(top <= y <= top + height for _, y in coords(plot))
    above = sparkline([4.0, 6.5], 3.5, 5.1)
    assert above.last[1] < above.band[0]  # a high value is drawn above the band


def test_reference_bound_outside_the_data_widens_the_scale():
    plot = sparkline([50, 70], 60, None)  # eGFR: only a lower bound
    top, height = plot.band
    first, last = coords(plot)
    assert top == PAD  # open-ended upwards: band reaches the top of the plot
    assert last[1] < top + height < first[1]  # 60 sits between 50 (below) and 70 (above)


def test_egfr_flag_matches_ucum_and_plain_unit_spellings():
    for unit in ("mL/min/{1.73_m2}", "mL/min/1.73m2", "ml/min/1.73 m2"):
        shown = trend(series("33914-3", [72, 65, 52], unit=unit, name="eGFR"))
        assert shown["flag"] == "low", unit
        assert shown["plot"].band is not None, unit
    assert trend(series("33914-3", [72, 65, 52], unit="mL/min/{1.73_m2}"))["unit"] == "mL/min/1.73 m²"


def test_no_flag_or_band_when_the_unit_differs():
    shown = trend(series("33914-3", [1.2, 0.8], unit="mL/s"))
    assert shown["flag"] is None and shown["plot"].band is None
    k_in_mg = trend(series("2823-3", [18.0, 21.0], unit="mg/dL"))  # K+ in an unexpected unit
    assert k_in_mg["flag"] is None and k_in_mg["plot"].band is None


def test_flags_on_the_latest_value_only():
    assert trend(series("2823-3", [4.0, 5.6]))["flag"] == "high"  # potassium
    assert trend(series("2823-3", [6.0, 4.2]))["flag"] is None  # old high value, latest normal
    assert trend(series("2951-2", [140, 130]))["flag"] == "low"  # sodium
    assert trend(series("4548-4", [5.5, 6.1], unit="%"))["flag"] == "high"  # HbA1c
    assert trend(series("2160-0", [90, 400], unit="umol/L"))["flag"] is None  # creatinine: no range kept


def test_trend_text_for_screen_readers():
    shown = trend(series("8480-6", [120, 135.5, 150], unit="mm[Hg]", name="Systolic BP"))
    assert shown["unit"] == "mmHg"
    assert shown["latest"].value == 150 and shown["count"] == 3 and shown["direction"] == "↑"
    assert shown["description"] == "Systolic BP 120, 135.5, 150 mmHg, latest 2024-03-01"
    many = trend(series("718-7", list(range(1, 10)), unit="g/dL", name="Hb"))
    assert many["description"].startswith("Hb 4, 5, 6, 7, 8, 9 g/dL")  # last six values only
    one = trend(series("6301-6", [1.1], unit="{INR}", name="INR"))
    assert one["plot"] is None and one["unit"] == "" and one["description"].startswith("INR 1.1,")


def test_display_unit():
    assert display_unit("Cel") == "°C"
    assert display_unit("{beats}/min") == "/min"
    assert display_unit("mL/min/{1.73_m2}") == "mL/min/1.73 m²"
    assert display_unit("mmol/L") == "mmol/L"


def test_labs_ordered_by_clinical_priority_then_by_count():
    labs = [series("1234-5", [1, 2], count=2), series("718-7", [13, 12]), series("9999-9", [1, 2], count=9),
            series("2160-0", [90, 95], unit="umol/L"), series("2823-3", [4, 5])]
    view = glance(ChartData(NOBODY, labs=tuple(labs)))
    assert [lab["code"] for lab in view["labs"]] == ["2823-3", "2160-0", "718-7", "9999-9", "1234-5"]
    assert view["more_labs"] == 0


def test_labs_capped_with_a_count_of_the_rest():
    labs = [series(code, [1, 2]) for code in reversed(LAB_PRIORITY)]
    view = glance(ChartData(NOBODY, labs=tuple(labs)))
    assert len(view["labs"]) == MAX_LABS
    assert [lab["code"] for lab in view["labs"]] == LAB_PRIORITY[:MAX_LABS]
    assert view["more_labs"] == len(LAB_PRIORITY) - MAX_LABS


def test_vitals_in_bedside_order():
    vitals = [series("29463-7", [80, 81], unit="kg"), series("9999-9", [1, 2]), series("8867-4", [70, 72]),
              series("8480-6", [120, 125], unit="mm[Hg]")]
    shown = glance(ChartData(NOBODY, vitals=tuple(vitals)))["vitals"]
    assert [v["code"] for v in shown] == ["8480-6", "8867-4", "29463-7", "9999-9"]


def test_glance_with_no_data():
    assert glance(ChartData(NOBODY)) == {"patient": NOBODY, "problems": (), "medications": (), "allergies": (),
                                         "labs": [], "more_labs": 0, "vitals": [], "unavailable": {}}
    ckd = ChartProblem("CKD", "disorder", "2020-01-01", "Condition/c1", "disorder")
    ada = ChartPatient(id="p1", name="Ada")
    kept = glance(ChartData(ada, problems=(ckd,), unavailable={"labs": "403"}))
    assert kept["patient"] == ada and kept["problems"] == (ckd,)
    assert kept["unavailable"] == {"labs": "403"}
