"""brewbalance: is my board game fair? Seeded bot simulation, DuckDB analysis, HTML/PDF reports.

The command-line interface lives in brewbalance.cli; `python -m brewbalance` runs it.
"""

__version__ = "0.1.0"
