#include "scram_client.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <map>
#include <utility>
#include <vector>

namespace partita::client {
namespace {

constexpr size_t kNonceBytes = 24;
constexpr size_t kKeyBytes = 32;

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // HMAC pads a short key with zero bytes: an empty key is one zero byte.
  const std::string k = key.empty() ? std::string(1, '\0') : std::string(key);
  HMAC(EVP_sha256(), k.data(), static_cast<int>(k.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &length);
  return std::string(reinterpret_cast<char*>(out), length);
}

std::string Sha256(std::string_view data) {
  unsigned char out[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), out);
  return std::string(reinterpret_cast<char*>(out), sizeof out);
}

std::string Xor(std::string a, std::string_view b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) a[i] = static_cast<char>(a[i] ^ b[i]);
  return a;
}

std::string Base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

// Returns false iff `text` is not base64.
bool FromBase64(std::string_view text, std::string* out) {
  if (text.size() % 4 != 0) return false;
  std::string bytes(text.size() / 4 * 3 + 1, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return false;
  size_t length = static_cast<size_t>(n);
  for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --length;  // EVP_DecodeBlock keeps padding bytes
  bytes.resize(length);
  *out = std::move(bytes);
  return true;
}

std::string EscapeName(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (c == '=') out += "=3D";
    else if (c == ',') out += "=2C";
    else out += c;
  }
  return out;
}

// The a=value attributes of a SCRAM message; false iff malformed or repeated.
bool Attributes(std::string_view message, std::map<char, std::string>* out) {
  size_t start = 0;
  while (start <= message.size()) {
    size_t end = message.find(',', start);
    if (end == std::string_view::npos) end = message.size();
    const std::string_view part = message.substr(start, end - start);
    if (part.size() < 2 || part[1] != '=') return false;
    if (!out->emplace(part[0], std::string(part.substr(2))).second) return false;
    start = end + 1;
  }
  return true;
}

Status Refused(const std::string& why) { return Status(Status::Code::kLoginRefused, why); }

}  // namespace

ScramClient::ScramClient(std::string user, std::string password)
    : ScramClient(std::move(user), std::move(password), [] {
        unsigned char random[kNonceBytes];
        RAND_bytes(random, sizeof random);
        return Base64(std::string_view(reinterpret_cast<char*>(random), sizeof random));
      }()) {}

ScramClient::ScramClient(std::string user, std::string password, std::string nonce)
    : user_(std::move(user)), password_(std::move(password)), nonce_(std::move(nonce)) {}

std::string ScramClient::ClientFirst() {
  client_first_bare_ = "n=" + EscapeName(user_) + ",r=" + nonce_;
  return "n,," + client_first_bare_;
}

Status ScramClient::ClientFinal(std::string_view server_first, std::string* out) {
  std::map<char, std::string> a;
  if (!Attributes(server_first, &a) || !a.count('r') || !a.count('s') || !a.count('i')) {
    return Refused("the server's SCRAM step is malformed");
  }
  const std::string& nonce = a['r'];
  if (nonce.size() <= nonce_.size() || nonce.compare(0, nonce_.size(), nonce_) != 0) {
    return Refused("the server's nonce does not extend the client's");
  }
  std::string salt;
  if (!FromBase64(a['s'], &salt)) return Refused("the server's salt is not base64");
  int iterations = 0;
  try {
    iterations = std::stoi(a['i']);
  } catch (...) {
    return Refused("the server's iteration count is not a number");
  }
  if (iterations < kMinIterations) {
    return Refused("the server asks for " + std::to_string(iterations) + " iterations, fewer than 4096");
  }
  unsigned char salted[kKeyBytes];
  PKCS5_PBKDF2_HMAC(password_.data(), static_cast<int>(password_.size()),
                    reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()), iterations,
                    EVP_sha256(), sizeof salted, salted);
  const std::string_view salted_view(reinterpret_cast<char*>(salted), sizeof salted);
  const std::string client_key = Hmac(salted_view, "Client Key");
  const std::string server_key = Hmac(salted_view, "Server Key");
  const std::string without_proof = "c=biws,r=" + nonce;
  const std::string auth_message = client_first_bare_ + "," + std::string(server_first) + "," + without_proof;
  expected_signature_ = Hmac(server_key, auth_message);
  const std::string proof = Xor(client_key, Hmac(Sha256(client_key), auth_message));
  OPENSSL_cleanse(salted, sizeof salted);
  *out = without_proof + ",p=" + Base64(proof);
  return Status::Ok();
}

bool ScramClient::VerifyServerFinal(std::string_view server_final) const {
  if (expected_signature_.empty() || server_final.substr(0, 2) != "v=") return false;
  std::string signature;
  if (!FromBase64(server_final.substr(2), &signature) || signature.size() != expected_signature_.size()) return false;
  return CRYPTO_memcmp(signature.data(), expected_signature_.data(), signature.size()) == 0;
}

}  // namespace partita::client
