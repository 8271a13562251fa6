print("alarmsim")
