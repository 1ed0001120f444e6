"""The PySide6 review window: the only package that imports Qt."""
