"""The running service: FastAPI app, command line and the table loop."""
