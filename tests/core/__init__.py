"""The small parts every stage uses: values, display, findings, names compared as a person sees them."""
