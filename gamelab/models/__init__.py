"""The player models: calibration to the published tables, profiles, the skill
ladder and verdicts checked under more than one model."""
