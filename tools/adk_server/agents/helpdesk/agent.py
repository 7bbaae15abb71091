"""The test agent `adk api_server`, `adk eval` and the A2A server all serve.

A help desk with a refunds sub-agent. Every model is a ScriptedLlm, so the
agent needs no network and answers the same way each run. The script covers,
one user message each: parallel tool calls with text beside them, a two-turn
cart whose tools write and read session state (seeded by the session create
call), a transfer to a sub-agent whose tools use that state too, a tool that
raises, and a long-running tool (A2A reports it as input-required).
"""

from __future__ import annotations

from typing import Any

from google.adk.agents import LlmAgent
from google.adk.tools import LongRunningFunctionTool
from google.adk.tools.tool_context import ToolContext

from .scripted import ScriptedLlm, step

WEATHER = {
    "Paris": {"temp_c": 18, "sky": "sunny"},
    "London": {"temp_c": 12.5, "sky": "rainy"},
}
ORDERS = {"A-1001": {"total": 25.5, "item": "kettle"}}


def get_weather(city: str) -> dict:
  """Returns the current temperature (Celsius) and sky for a city."""
  return {"city": city, **WEATHER.get(city, {"temp_c": None, "sky": "unknown"})}


def add_to_cart(item: str, quantity: int, tool_context: ToolContext) -> dict:
  """Adds an item to the user's cart (kept in session state)."""
  cart = list(tool_context.state.get("cart", []))
  cart.append({"item": item, "quantity": quantity})
  tool_context.state["cart"] = cart
  return {"cart_size": sum(line["quantity"] for line in cart)}


def view_cart(tool_context: ToolContext) -> dict:
  """Lists the user's cart from session state."""
  return {
      "owner": tool_context.state.get("user_name"),
      "items": tool_context.state.get("cart", []),
  }


def check_inventory(item: str) -> dict:
  """Checks stock for an item. The inventory service is down: it raises."""
  raise RuntimeError(f"inventory service unavailable for {item!r}")


def request_approval(item: str, quantity: int) -> dict:
  """Asks a manager to approve a purchase; the answer comes later."""
  return {"status": "pending", "ticket": "T-100", "item": item, "quantity": quantity}


def lookup_order(order_id: str, tool_context: ToolContext) -> dict:
  """Looks up an order for the session's user."""
  order = ORDERS.get(order_id, {})
  return {"order_id": order_id, "customer": tool_context.state.get("user_name"), **order}


def issue_refund(order_id: str, amount: float, tool_context: ToolContext) -> dict:
  """Refunds an order and records it in session state."""
  tool_context.state["refunded"] = {"order_id": order_id, "amount": amount}
  return {"order_id": order_id, "refunded": amount}


def _weather_text(responses: list[dict[str, Any]]) -> str:
  return "; ".join(
      f"{r['response']['city']} is {r['response']['temp_c']}°C and {r['response']['sky']}"
      for r in responses
  ) + "."


def _cart_text(responses: list[dict[str, Any]]) -> str:
  seen = responses[0]["response"] if responses else {}
  items = seen.get("items") or []
  if not items:
    return f"{seen.get('owner') or 'Guest'}, your cart is empty."
  listed = ", ".join(f"{line['quantity']} x {line['item']}" for line in items)
  return f"{seen.get('owner') or 'Guest'}, your cart has {listed}."


HELPDESK_SCRIPT = {
    "What's the weather in Paris and London?": [
        step("Let me check both cities.",
             [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "London"})]),
        step(_weather_text),
    ],
    "Add two apples to my cart.": [
        step(None, [("add_to_cart", {"item": "apple", "quantity": 2})]),
        step(lambda r: f"Added. Your cart now holds {r[0]['response']['cart_size']} items."),
    ],
    "What is in my cart?": [
        step(None, [("view_cart", {})]),
        step(_cart_text),
    ],
    "I want a refund for order A-1001.": [
        step("Let me hand you to our refunds desk.",
             [("transfer_to_agent", {"agent_name": "refunds"})]),
    ],
    "Is the blue widget in stock?": [
        step(None, [("check_inventory", {"item": "blue widget"})]),
        step("This step is never reached: the tool raises."),
    ],
    "Please order 3 laptops.": [
        step("I need a manager's approval first.",
             [("request_approval", {"item": "laptop", "quantity": 3})]),
        step(lambda r: f"Your order waits for approval (ticket {r[0]['response']['ticket']})."
             if r else "Your order waits for approval."),
    ],
}

REFUNDS_SCRIPT = {
    "I want a refund for order A-1001.": [
        step(None, [("lookup_order", {"order_id": "A-1001"})]),
        step(None, [("issue_refund", {"order_id": "A-1001", "amount": 25.5})]),
        step(lambda r: f"Refunded {r[0]['response']['refunded']} for order "
             f"{r[0]['response']['order_id']}."),
    ],
}

refunds = LlmAgent(
    name="refunds",
    model=ScriptedLlm(model="scripted-refunds", script=REFUNDS_SCRIPT),
    description="Handles refunds for orders.",
    instruction="You refund orders for {user_name?}. Look the order up before refunding it.",
    tools=[lookup_order, issue_refund],
)

root_agent = LlmAgent(
    name="helpdesk",
    model=ScriptedLlm(model="scripted-helpdesk", script=HELPDESK_SCRIPT),
    description="A help desk for weather, the shopping cart and orders.",
    instruction="You help {user_name?} with the weather, their cart and their orders.",
    tools=[get_weather, add_to_cart, view_cart, check_inventory,
           LongRunningFunctionTool(request_approval)],
    sub_agents=[refunds],
)
