"""games/vampires"""
