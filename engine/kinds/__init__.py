"""Game kinds other than RoboRacer, each a pure package (standard library only, no I/O, no clock, no
global random). `rambots`: RAMbots (seed 002, docs/rambots.md)."""
