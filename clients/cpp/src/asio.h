// Boost.Asio, as this library includes it. Boost 1.74's awaitable.hpp uses
// std::exchange without including <utility>, which GCC 12's headers no longer
// pull in on their own; including it first keeps every user of Asio building.
#ifndef PARTITA_CLIENT_SRC_ASIO_H_
#define PARTITA_CLIENT_SRC_ASIO_H_

#include <utility>

#include <boost/asio.hpp>

#endif  // PARTITA_CLIENT_SRC_ASIO_H_
