bench/service: bench/service.c client/client.h
client/client.h:
