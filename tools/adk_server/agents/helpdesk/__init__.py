# ADK's loader imports the package and reads `agent.root_agent`.
from . import agent
