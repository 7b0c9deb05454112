"""The bottom layer of gamelab: declarations every other layer reads."""
