"""The Pi's own inputs and outputs (gpiozero), camera choice and deployment files."""
