"""The host's Inter ``@font-face`` rules are copied only when they load from the same site."""

from __future__ import annotations

from pathlib import Path

from th_ext.publish._build import HOST_FONTS_CSS, host_font_rules, write_host_fonts

_LOCAL = (
    "@font-face{font-family:Inter;font-style:normal;font-weight:100 900;"
    'src:url(/tiny-harness/assets/inter-roman-latin.Di8DUHzh.woff2) format("woff2")}'
)


def test_a_root_relative_inter_rule_is_taken_as_it_is() -> None:
    css = "body{color:red}" + _LOCAL + "@font-face{font-family:'Other';src:url(/o.woff2)}"
    assert host_font_rules(css) == [_LOCAL]


def test_a_rule_loading_from_another_origin_or_a_data_url_is_left_out() -> None:
    for url in (
        "https://fonts.example/inter.woff2",
        "//fonts.example/inter.woff2",
        "data:font/woff2;base64,AAAA",
        "/assets/inter.woff2?v=1",
        "/assets/inter.ttf",
    ):
        rule = "@font-face{font-family:Inter;src:url(" + url + ")}"
        assert host_font_rules(rule) == [], url
    assert host_font_rules("@font-face{font-family:Inter;src:local(Inter)}") == []


def test_the_rules_of_every_host_stylesheet_are_written_once(tmp_path: Path) -> None:
    dest, built = tmp_path / "dest", tmp_path / "built"
    (dest / "assets").mkdir(parents=True)
    (dest / "assets/style.abc.css").write_text(_LOCAL + _LOCAL, encoding="utf-8")
    (dest / "assets/other.css").write_text("p{margin:0}", encoding="utf-8")
    (dest / "assets/linked.css").symlink_to(dest / "assets/style.abc.css")
    assert write_host_fonts(dest, built) == 1
    written = (built / HOST_FONTS_CSS).read_text(encoding="utf-8")
    assert written.count("@font-face") == 1 and _LOCAL in written


def test_a_host_without_fonts_gets_an_empty_stylesheet(tmp_path: Path) -> None:
    assert write_host_fonts(tmp_path / "nothing", tmp_path / "built") == 0
    assert "@font-face" not in (tmp_path / "built" / HOST_FONTS_CSS).read_text(encoding="utf-8")
