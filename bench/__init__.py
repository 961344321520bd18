"""Benchmarks of the 101 site, run with `make bench` (`.venv/bin/python bench/run.py`).

Each benchmark is a module of this package with a `run(options) -> Section` function,
listed in `bench.run.BENCHMARKS`; `bench/run.py --write` puts every section's figures,
with the machine they were measured on, in docs/benchmarks.md.
"""
