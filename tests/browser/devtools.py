"""A minimal Chrome DevTools Protocol client over a WebSocket, standard library only.

Enough for a test: send a command and wait for its answer, keeping the
uncaught page exceptions reported meanwhile. One thread; not thread-safe.
"""

import base64
import hashlib
import json
import os
import socket
import struct
import urllib.parse

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class DevToolsError(Exception):
    """The browser answered a command with an error, or the connection broke."""


class DevTools:
    """A connection to one DevTools target (a page), from its webSocketDebuggerUrl."""

    def __init__(self, ws_url, timeout=30.0):
        url = urllib.parse.urlparse(ws_url)
        self._sock = socket.create_connection((url.hostname, url.port), timeout=timeout)
        self._buffer = b""
        self._next_id = 0
        self.exceptions = []
        self._handshake(url.netloc, url.path)

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self._sock.close()

    def call(self, method, **params):
        """Sends a command and returns its result; raises DevToolsError on an error answer."""
        self._next_id += 1
        ident = self._next_id
        self._send_frame(0x1, json.dumps({"id": ident, "method": method, "params": params}).encode())
        while True:
            message = json.loads(self._receive_message())
            if message.get("id") == ident:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._on_event(message)

    def evaluate(self, expression):
        """Evaluates a JavaScript expression in the page and returns its value (JSON-like)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"evaluate: {result['exceptionDetails']}")
        return result["result"].get("value")

    def _on_event(self, message):
        if message.get("method") == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.exceptions.append(details.get("exception", {}).get("description") or details.get("text"))

    def _handshake(self, host, path):
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self._sock.sendall(request.encode())
        while b"\r\n\r\n" not in self._buffer:
            self._fill()
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise DevToolsError(f"WebSocket handshake refused: {lines[0]}")
        expected = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
        if headers.get("sec-websocket-accept") != expected:
            raise DevToolsError("WebSocket handshake: wrong Sec-WebSocket-Accept")

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._sock.sendall(header + mask + masked)

    def _receive_message(self):
        parts = []
        while True:
            fin, opcode, payload = self._receive_frame()
            if opcode == 0x8:
                raise DevToolsError("the browser closed the DevTools connection")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8")

    def _receive_frame(self):
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read(8))
        mask = self._read(4) if second & 0x80 else None
        payload = self._read(length)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(first & 0x80), first & 0x0F, payload

    def _read(self, count):
        while len(self._buffer) < count:
            self._fill()
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data

    def _fill(self):
        chunk = self._sock.recv(65536)
        if not chunk:
            raise DevToolsError("the DevTools connection closed")
        self._buffer += chunk
