"""Recognising The Glade's forest boards from a camera photo.

``enrol`` learns a set of components from an enrolment pack; ``scan`` reads one photo of one
forest board (see :mod:`companion.the_glade.recognition.jobs`). The table simulator
(:mod:`.sim`) draws SAMPLE art and renders test photos. Importing this package is cheap: the
modules below import OpenCV and numpy only when they are used.
"""
