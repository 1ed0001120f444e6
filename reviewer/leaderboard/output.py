"""The leaderboard as text: a table, JSON, CSV (the models) or Markdown ready to paste."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Any, TextIO

from reviewer.leaderboard.board import Board, ModelRow, PairRow, ViewAgreement
from reviewer.tabular import cell, write_rows
from scoring.paths import shown

MODEL_COLUMNS = (
    "rank",
    "rank_low",
    "rank_high",
    "model",
    "score",
    "low",
    "high",
    "n_runs",
    "n_scenarios",
    "pass_rate",
    "pass_low",
    "pass_high",
    "n_checked",
    "dangerous_rate",
    "unsafe_low",
    "unsafe_high",
    "unsafe",
    "n_safety",
    "left_out_unsafe",
)


def _num(x: float, digits: int = 3) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:.{digits}f}"


def _rate(k: int, n: int, low: float, high: float) -> str:
    if not n:
        return "n/a"
    return f"{k / n:.0%} [{low:.0%}, {high:.0%}] ({k}/{n})"


def model_record(row: ModelRow) -> dict[str, Any]:
    """One model's figures, with the rates, as plain values (NaN as None)."""
    data = {**asdict(row), "pass_rate": row.pass_rate, "dangerous_rate": row.dangerous_rate}
    return {
        k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in data.items()
    }


def pair_record(pair: PairRow) -> dict[str, Any]:
    data = {**asdict(pair), "distinguishable": pair.distinguishable}
    return {
        k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in data.items()
    }


def _title(board: Board) -> str:
    what = board.view + (f", metric {board.metric}" if board.metric else "")
    scale = "0–1" if board.view == "scorer" else "0–3"
    return f"Leaderboard by {what} (score {scale}, higher is better)"


def _model_lines(board: Board) -> list[list[str]]:
    return [
        [
            f"{r.rank} ({r.rank_low}–{r.rank_high})",
            r.model,
            f"{_num(r.score)} [{_num(r.low)}, {_num(r.high)}]",
            f"{r.n_runs}/{r.n_scenarios}",
            _rate(r.passed, r.n_checked, r.pass_low, r.pass_high),
            _rate(r.unsafe, r.n_safety, r.unsafe_low, r.unsafe_high),
        ]
        for r in board.rows
    ]


MODEL_HEAD = (
    "rank (95%)",
    "model",
    "score [95% CI]",
    "runs/scenarios",
    "pass rate",
    "dangerous rate",
)
PAIR_HEAD = ("pair", "difference [95% CI]", "shared scenarios", "distinguishable")
AGREE_HEAD = ("views", "Kendall tau [95% CI]", "models", "runs", "runs that drive disagreement")


def _pair_lines(board: Board) -> list[list[str]]:
    return [
        [
            f"{p.a} − {p.b}",
            f"{_num(p.difference)} [{_num(p.low)}, {_num(p.high)}]",
            str(p.shared_scenarios),
            "yes" if p.distinguishable else "no",
        ]
        for p in board.pairs
    ]


def _agree_lines(agreements: list[ViewAgreement]) -> list[list[str]]:
    return [
        [
            f"{g.a} vs {g.b}",
            f"{_num(g.tau, 2)} [{_num(g.low, 2)}, {_num(g.high, 2)}]",
            str(g.n_models),
            str(g.n_runs),
            "; ".join(
                f"{d.run_id} ({d.model}: {d.a_value:.2f} vs {d.b_value:.2f})" for d in g.drivers
            )
            or "—",
        ]
        for g in agreements
    ]


def _text_table(head: tuple[str, ...], lines: list[list[str]], out: TextIO) -> None:
    cells = [[shown(cell(v)) for v in line] for line in lines]
    widths = [max([len(h), *(len(c[i]) for c in cells)]) for i, h in enumerate(head)]
    out.write("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip() + "\n")
    for c in cells:
        out.write("  ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)).rstrip() + "\n")


def _md_table(head: tuple[str, ...], lines: list[list[str]], out: TextIO) -> None:
    def esc(text: str) -> str:
        return (
            shown(cell(text))
            .replace("\\", "\\\\")
            .replace("|", "\\|")
            .replace("*", "\\*")
            .replace("_", "\\_")
        )

    out.write("| " + " | ".join(head) + " |\n")
    out.write("|" + "|".join("---" for _ in head) + "|\n")
    for line in lines:
        out.write("| " + " | ".join(esc(v) for v in line) + " |\n")


def write(board: Board, agreements: list[ViewAgreement], fmt: str, out: TextIO) -> None:
    """Write ``board`` (and how the views agree) in ``fmt``."""
    if fmt == "json":
        doc = {
            "view": board.view,
            "metric": board.metric,
            "method": board.method,
            "safe_only": board.safe_only,
            "without_value": board.without_value,
            "open_disputes": board.open_disputes,
            "notes": list(board.notes),
            "models": [model_record(r) for r in board.rows],
            "pairs": [pair_record(p) for p in board.pairs],
            "agreement": [
                {
                    **{k: v for k, v in asdict(g).items() if k != "drivers"},
                    "drivers": [asdict(d) for d in g.drivers],
                }
                for g in agreements
            ],
        }
        json.dump(_clean(doc), out, indent=2, ensure_ascii=False, allow_nan=False)
        out.write("\n")
        return
    if fmt == "csv":
        write_rows([model_record(r) for r in board.rows], MODEL_COLUMNS, "csv", out)
        return
    table = _md_table if fmt == "markdown" else _text_table
    heading = "### " if fmt == "markdown" else ""
    out.write(f"{heading}{_title(board)}\n\n")
    table(MODEL_HEAD, _model_lines(board), out)
    out.write(f"\n{heading}Pairwise differences\n\n")
    table(PAIR_HEAD, _pair_lines(board), out)
    if agreements:
        out.write(f"\n{heading}Do the views rank the models alike?\n\n")
        table(AGREE_HEAD, _agree_lines(agreements), out)
    out.write("\n")
    for note in (*board.notes, f"Method: {board.method}."):
        out.write(f"_{note}_\n\n" if fmt == "markdown" else f"{note}\n")


def _clean(value: Any) -> Any:
    """``value`` with every non-finite float as None (JSON has no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value
