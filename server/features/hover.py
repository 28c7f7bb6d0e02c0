"""Hover on a kernel's name: its profile when `optiml profile` has measured this very version of it, read from the
engine's cache (no GPU needed, a few milliseconds); otherwise the command that profiles it. Below it, the kernel's
loop-nest program and the schedule families the search takes for it (or why it has none).

The cache keys hold the candidate (its compile unit, with the file's path as the engine was given it), the contract
and the device. The command shown names the file by the path the server uses, so that its results are found here.
"""

from __future__ import annotations

import shlex

import diskcache
from lsprotocol import types

from optiml_engine.cache import open_cache
from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.evaluate import cached_profile, measured_devices
from optiml_engine.model import Candidate, DeviceInfo, Kernel, OptimlError
from optiml_engine.report import profile_markdown, program_markdown
from server.documents import Documents, OpenDocument, has_contract
from server.features.code_actions import ADD_CONTRACT


class MeasuredDevices:
    """The devices the cache holds ceilings for. Finding them reads every key, so they are looked for again only
    when the cache's entry count changed (one SQL count)."""

    def __init__(self, cache: diskcache.Cache):
        self._cache = cache
        self._entries = -1
        self._devices: list[DeviceInfo] = []

    def devices(self) -> list[DeviceInfo]:
        entries = len(self._cache)
        if entries != self._entries:
            self._entries, self._devices = entries, measured_devices(self._cache)
        return self._devices


class ProfileHover:
    def __init__(self, documents: Documents):
        self._documents = documents
        self._cache = open_cache()
        self._devices = MeasuredDevices(self._cache)
        self._programs: dict[str, str] = {}   # compile unit text -> its program's markdown (lifting parses again)

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        document = self._documents.get(params.text_document.uri)
        kernel = document and document.kernel_at(params.position, name_only=True)
        if kernel is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=self._markdown(document, kernel)),
                           range=document.range(kernel.name_span))

    def _markdown(self, document: OpenDocument, kernel: Kernel) -> str:
        command = f"`optiml profile {shlex.quote(document.path)} --kernel {kernel.name}`"
        if not has_contract(kernel):
            return (f"**{kernel.name}**: not profiled yet; it needs a benchmark contract first (quick fix "
                    f"\"{ADD_CONTRACT}\"), then {command} on a machine with an NVIDIA GPU profiles it")
        try:
            candidate = original_candidate(document.cuda, kernel.name)
            reference = reference_candidate(document.cuda, candidate)
        except OptimlError as error:
            return f"**{kernel.name}**: not profiled yet; its contract has an error first: {error.message}"
        program = self._program(candidate)
        for device in self._devices.devices():
            if (found := cached_profile(self._cache, candidate, reference, device)) is not None:
                return f"{profile_markdown(*found)}\n\n{program}"
        return f"**{kernel.name}**: not profiled yet; {command} on a machine with an NVIDIA GPU profiles it\n\n{program}"

    def _program(self, candidate: Candidate) -> str:
        text = candidate.unit.text
        if text not in self._programs:
            if len(self._programs) > 256:
                self._programs.clear()
            self._programs[text] = program_markdown(candidate)
        return self._programs[text]
