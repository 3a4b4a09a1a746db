"""The comparison view: which fabric to buy, from the requirement form to the chosen design.

Kept free of imports on purpose: `study_host` (a Qt-free module) runs as the main module of the
study's own process (`python -m aicnet_gui.gui.compare.study_host`), and its worker processes
import it again; importing this package must not pull Qt into them.
"""
