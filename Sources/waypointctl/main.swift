print("ctl")
