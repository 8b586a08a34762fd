"""The pipeline and its settings: config files, waivers, baselines, jobs, progress, verdict integrity."""
