.gpu tonga
.include "good.inc"
s_endpgm
