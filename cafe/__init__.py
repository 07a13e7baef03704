"""A game café's tables on an MQTT broker: each table's publisher and the staff's overview.

``topics`` names the topics and checks table names and broker addresses (light: the settings
use it); ``outbox`` keeps a table's events in SQLite until the broker has them; ``publisher``
tells the broker what a table does; ``overview`` serves one page of every table. The topic
layout and the payloads are in docs/mqtt.md.
"""
