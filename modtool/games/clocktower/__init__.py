"""games/clocktower"""
