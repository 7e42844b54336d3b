"""One truth about a manifest's working directory: its own folder by default, as both guides say."""

from __future__ import annotations

from pathlib import Path

from arena.manifest import load_manifest

ROOT = Path(__file__).resolve().parents[2]


def test_a_manifest_without_cwd_runs_in_its_folder_and_the_guides_say_so(tmp_path: Path) -> None:
    folder = tmp_path / "entrant"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "b"\ncommand = ["python3", "bot.py"]\n', encoding="utf-8")
    assert load_manifest(folder / "bot.toml").cwd == folder.resolve()
    guide = (ROOT / "docs" / "writing-a-bot.md").read_text(encoding="utf-8")
    isolation = (ROOT / "docs" / "isolation.md").read_text(encoding="utf-8")
    assert "fresh empty folder" not in guide
    assert "relative to the manifest's folder,\n" in guide and "which is also the default" in guide
    assert "(its manifest's `cwd`, by default the manifest's folder;" in isolation
