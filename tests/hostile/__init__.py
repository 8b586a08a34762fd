"""A filer's worst inputs: their generators (worst.py, records.py, par_sheets.py, meter_logs.py) and their cost."""
