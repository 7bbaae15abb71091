"""A flight agent whose model is scripted (no network): enough for `agents-cli eval generate`
to record real ADK events — a tool call, its response, a final answer, two agents."""

from typing import AsyncGenerator

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types


def search_flights(destination: str) -> dict:
    """Searches flights to a destination."""
    return {"flights": [{"id": "AA123", "destination": destination, "price": 320}]}


def book_flight(flight_id: str) -> dict:
    """Books a flight by its id."""
    return {"status": "booked", "reference": "XK42", "flight_id": flight_id}


def _last_user_text(req: LlmRequest) -> str:
    for c in reversed(req.contents):
        if c.role == "user":
            for p in c.parts or []:
                if p.text:
                    return p.text
    return ""


class ScriptedModel(BaseLlm):
    """Calls the tool the user's words ask for, then answers from the tool's output."""

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1] if llm_request.contents else None
        response = next((p.function_response for p in (last.parts or []) if p.function_response), None) if last else None
        if response is not None:
            r = response.response or {}
            if response.name == "search_flights":
                f = r["flights"][0]
                text = f"I found {f['id']} to {f['destination']} for ${f['price']}."
            else:
                text = f"Booked {r['flight_id']}; your reference is {r['reference']}."
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
            return
        said = _last_user_text(llm_request).lower()
        if "book" in said and "aa123" in said:
            call = types.FunctionCall(name="book_flight", args={"flight_id": "AA123"})
        elif "flight" in said:
            call = types.FunctionCall(name="search_flights", args={"destination": "NYC"})
        else:
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="I can search and book flights.")]))
            return
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))


root_agent = LlmAgent(
    name="flight_agent",
    model=ScriptedModel(model="scripted"),
    instruction="Search and book flights for the user.",
    description="Searches and books flights.",
    tools=[search_flights, book_flight],
)
