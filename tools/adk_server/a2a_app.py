"""The test agent behind ADK's A2A server: `uvicorn a2a_app:app`.

to_a2a() writes into the agent card the URL it is told (A2A_CARD_HOST,
A2A_CARD_PORT; ADK's defaults are localhost and 8000), not the one uvicorn
binds, so a card can name a place the server is not.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "agents"))

from google.adk.a2a.utils.agent_to_a2a import to_a2a  # noqa: E402
from helpdesk.agent import root_agent  # noqa: E402

_card = {}
if os.environ.get("A2A_CARD_HOST"):
  _card["host"] = os.environ["A2A_CARD_HOST"]
if os.environ.get("A2A_CARD_PORT"):
  _card["port"] = int(os.environ["A2A_CARD_PORT"])

app = to_a2a(root_agent, **_card)
