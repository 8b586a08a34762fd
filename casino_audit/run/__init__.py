"""The run itself: settings from options, config files and defaults, waivers and baselines, discovery,
the pipeline that takes each file through load, identify, validate and check, and the progress shown."""
