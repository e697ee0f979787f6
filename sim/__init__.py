"""Simulation: game rules, numba kernels, scripted bots, and the run writer.

`sim` knows rules and policies only; it never imports `analysis` or `reports`.
"""
