"""threads"""
