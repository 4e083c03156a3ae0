"""Generic camera-vision helpers: image loading, board finding, rectification, overlays, and
the table simulator's core. Importing this package is cheap; its modules import OpenCV."""
