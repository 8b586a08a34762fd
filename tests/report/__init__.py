"""The report formats, the HTML report and what CI reads of them."""
