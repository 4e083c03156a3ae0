"""Device ports: camera, display and buttons, each a small class over a swappable back-end.

As in gpiozero, every port has a real adapter and a fake chosen by configuration: the table
service never knows which it has. Only these modules import picamera2, luma or gpiozero.
"""
