"""The sandbox's signing key: RS256/RS384 JWTs for access and id tokens, and the JWKS.

A fresh 2048-bit RSA key is generated per process unless ``SIGNING_KEY_FILE``
names a PEM private key, so tokens from a previous run stop verifying after a
restart (as they would after an EHR key rotation).
"""
from __future__ import annotations

from pathlib import Path

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey


class InvalidJWT(ValueError):
    """A JWT whose signature, algorithm or structure is not ours."""


class SigningKey:
    """One RSA key with a ``kid``; ``sign(claims)`` and ``verify(token)``."""

    def __init__(self, alg: str = "RS256", pem_file: str | None = None):
        if alg not in ("RS256", "RS384"):
            raise ValueError("SIGNING_ALG must be RS256 or RS384")
        self.alg = alg
        if pem_file:
            self.key = RSAKey.import_key(Path(pem_file).read_bytes())
        else:
            self.key = RSAKey.generate_key(2048, auto_kid=True)
        self.key.ensure_kid()
        self.kid = self.key.kid

    def jwks(self) -> dict:
        """The public JWKS document (no private members)."""
        public = self.key.as_dict(private=False)
        public.update({"use": "sig", "alg": self.alg, "kid": self.kid})
        return {"keys": [public]}

    def sign(self, claims: dict) -> str:
        header = {"alg": self.alg, "kid": self.kid, "typ": "JWT"}
        return jwt.encode(header, claims, self.key, algorithms=[self.alg])

    def verify(self, token: str) -> dict:
        """Claims of a token signed by this key; raises InvalidJWT otherwise.

        Time and audience checks are the caller's (they differ per token kind).
        """
        try:
            return dict(jwt.decode(token, self.key, algorithms=[self.alg]).claims)
        except (JoseError, ValueError, TypeError) as exc:
            raise InvalidJWT(str(exc)) from exc
