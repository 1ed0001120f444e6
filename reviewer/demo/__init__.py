"""The demo data: the bundled scenarios' runs and the generator that writes them.

Offers :func:`generate` and :func:`render_run` (``python -m reviewer.demo`` regenerates
``resources/demo/``) and, in :mod:`reviewer.demo.synth`, the :class:`TrajectoryBuilder` that
tests and benchmarks use to write trajectories. The review itself never imports this part.
"""

from reviewer.demo.render import default_out_dir, generate, main, render_run

__all__ = ["default_out_dir", "generate", "main", "render_run"]
