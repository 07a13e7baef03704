"""The kiosk's routes, one ``APIRouter`` per concern."""
