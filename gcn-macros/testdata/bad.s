# a file-form kernel with an error on line 4 and one in an include
.gpu tonga
s_endpgm
v_add_f32 v1, s[2:3], v4
.include "bad.inc"
