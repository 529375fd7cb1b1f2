// The client's SCRAM-SHA-256 steps against RFC 7677's example exchange.
#include "scram_client.h"

#include <gtest/gtest.h>

namespace partita::client {
namespace {

constexpr char kServerFirst[] =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";

TEST(ScramClientTest, ReproducesTheRfc7677Exchange) {
  ScramClient client("user", "pencil", "rOprNGfwEbeRWgbNEkqO");
  EXPECT_EQ(client.ClientFirst(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  std::string final_message;
  ASSERT_TRUE(client.ClientFinal(kServerFirst, &final_message).ok());
  EXPECT_EQ(final_message,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  EXPECT_TRUE(client.VerifyServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="));
  EXPECT_FALSE(client.VerifyServerFinal("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="));
  EXPECT_FALSE(client.VerifyServerFinal("e=invalid-proof"));
}

TEST(ScramClientTest, RefusesAServerNonceThatDoesNotExtendTheClients) {
  ScramClient client("user", "pencil", "abc");
  client.ClientFirst();
  std::string out;
  EXPECT_FALSE(client.ClientFinal("r=xyz123,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", &out).ok());
  EXPECT_FALSE(client.ClientFinal("r=abc,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096", &out).ok());
}

TEST(ScramClientTest, RefusesMalformedOrWeakServerSteps) {
  ScramClient client("user", "pencil", "abc");
  client.ClientFirst();
  std::string out;
  EXPECT_FALSE(client.ClientFinal("garbage", &out).ok());
  EXPECT_FALSE(client.ClientFinal("r=abcd,s=!!!!,i=4096", &out).ok());
  EXPECT_FALSE(client.ClientFinal("r=abcd,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=many", &out).ok());
  const Status weak = client.ClientFinal("r=abcd,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=1", &out);
  EXPECT_FALSE(weak.ok());
  EXPECT_NE(weak.message().find("4096"), std::string::npos);
}

}  // namespace
}  // namespace partita::client
