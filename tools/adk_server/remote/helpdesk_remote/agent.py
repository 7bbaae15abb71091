"""The help desk reached over A2A, for `adk eval` of a remote agent.

ADK's RemoteA2aAgent reads the card at HELPDESK_A2A_CARD (the A2A server of
a2a_app.py must then state its real URL: A2A_CARD_HOST/A2A_CARD_PORT) and
sends each turn as an A2A message; `adk eval` on this folder is ADK's own
evaluation of the agent through A2A, the oracle for an A2A client.
"""

import os

from google.adk.agents.remote_a2a_agent import RemoteA2aAgent

root_agent = RemoteA2aAgent(
    name="helpdesk_remote",
    agent_card=os.environ.get(
        "HELPDESK_A2A_CARD", "http://127.0.0.1:8000/.well-known/agent-card.json"),
    description="The help desk, served by ADK's A2A server.",
)
