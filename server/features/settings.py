"""The client's settings for jobs, sent once as the `initializationOptions` of `initialize`:

    {"budget": {"candidates": 60, "seconds": 600}, "llm": false, "lints": {"severity": "hint"}}

`budget` bounds each optimization job as `optiml optimize --budget N --time S` does; `llm` adds the LLM policy to
the built-in rules and templates; `lints.severity` is how the performance findings show (hint, information,
warning). The LLM's endpoint, model and key, and the GPU indices, reach the engine through
the environment the client starts the server with (OPTIML_LLM_*, OPTIML_GPUS), as they reach `optiml` on the command
line: the key never travels in a message. A client changes settings by restarting the server.
"""

from __future__ import annotations

from typing import Literal

from lsprotocol import types
from pydantic import BaseModel, ConfigDict, ValidationError
from pygls.lsp.server import LanguageServer

from optiml_engine.search.mcts import SearchBudget


class LintSettings(BaseModel):
    severity: Literal["hint", "information", "warning"] = "hint"


class JobSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")   # options meant for other parts of a client are no error

    budget: SearchBudget = SearchBudget()   # as `optiml optimize` without options: 60 candidates, 10 minutes
    llm: bool = False
    lints: LintSettings = LintSettings()    # read by the diagnostics, not the jobs: one validation of the options


class ClientSettings:
    """The settings in force: the defaults until `initialize`, then the client's (defaults when they are invalid,
    with a message saying which option is wrong)."""

    def __init__(self, server: LanguageServer):
        self._server = server
        self.jobs = JobSettings()

    def initialize(self, params: types.InitializeParams) -> None:
        if params.initialization_options is None:
            return
        try:
            self.jobs = JobSettings.model_validate(params.initialization_options)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            # not commands.show: commands.py needs engine.py, which needs this module
            self._server.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error, message=f"OptiML settings: {where}: {first['msg']}; using the defaults"))
