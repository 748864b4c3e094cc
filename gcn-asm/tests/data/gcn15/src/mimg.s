# MIMG (GCN 1.5): dim, NSA address lists, dlc, r128, d16, data counts.
    image_load v1, v1, s[4:11] dmask:1 dim:1d
    image_load v[1:4], v[2:3], s[4:11] dmask:15 dim:2d unorm
    image_load v[1:3], v[2:4], s[4:11] dmask:7 dim:3d glc slc dlc
    image_load v[1:2], v[2:4], s[4:7] dmask:3 dim:cube r128
    image_load v[1:3], v[2:3], s[4:11] dmask:5 dim:1d_array tfe
    image_load v[1:2], v[2:4], s[4:11] dmask:9 dim:2d_array lwe
    image_load v1, v[2:4], s[4:11] dmask:8 dim:2d_msaa
    image_load v[1:2], v[2:5], s[4:11] dmask:15 dim:2d_msaa_array d16
    image_load v[1:2], [v2,v7], s[4:11] dmask:3 dim:2d
    image_load v[1:2], [v2,v7,v9], s[4:11] dmask:3 dim:3d
    image_load v[1:2], [v2,v7,v9,v11], s[4:11] dmask:3 dim:2d_msaa_array
    image_load_mip v1, v[2:3], s[4:11] dim:1d
    image_load_mip v1, v[2:5], s[4:11] dim:cube
    image_load_pck v1, v2, s[4:11] dmask:1 dim:1d
    image_store v[1:4], v[2:3], s[4:11] dmask:15 dim:2d unorm
    image_store v1, v2, s[4:11] dmask:2 dim:1d unorm glc
    image_store_mip v1, v[2:4], s[4:11] dmask:1 dim:2d unorm
    image_get_resinfo v[1:4], v2, s[4:11] dmask:15 dim:1d
    image_atomic_swap v1, v2, s[4:11] dmask:1 dim:1d unorm glc
    image_atomic_cmpswap v[1:2], v[2:3], s[4:11] dmask:3 dim:2d unorm
    image_atomic_add v1, v2, s[4:11] dmask:1 dim:1d unorm
    image_atomic_dec v1, v2, s[4:11] dmask:1 dim:1d unorm slc
    image_sample v[1:4], v2, s[4:11], s[12:15] dmask:15 dim:1d
    image_sample v[1:4], v[2:3], s[4:11], s[12:15] dmask:15 dim:2d
    image_sample v[1:4], [v2,v3], s[4:11], s[12:15] dmask:15 dim:2d
    image_sample_c_l v[1:3], v[2:6], s[4:11], s[12:15] dmask:7 dim:2d_array
    image_sample_c_l v[1:3], [v2,v4,v6,v8,v10], s[4:11], s[12:15] dmask:7 dim:2d_array
    image_sample_d v[1:4], v[2:7], s[4:11], s[12:15] dmask:15 dim:2d
    image_sample_d v[1:4], [v2,v3,v4,v5,v6,v7,v8,v9,v10], s[4:11], s[12:15] dmask:15 dim:3d
    image_sample_c_d_cl_o v[1:4], [v2,v3,v4,v5,v6,v7,v8,v9,v10,v11,v12,v13,v14], s[4:11], s[12:15] dmask:15 dim:3d
    image_sample_b_cl v1, v[2:5], s[4:11], s[12:15] dmask:1 dim:2d
    image_sample_lz_o v1, v[2:4], s[4:11], s[12:15] dim:2d
    image_sample_cd v1, v[2:7], s[4:11], s[12:15] dim:2d
    image_gather4 v[1:4], v[2:3], s[4:11], s[12:15] dmask:1 dim:2d
    image_gather4_c_b_cl_o v[1:4], v[2:7], s[4:11], s[12:15] dmask:2 dim:2d
    image_gather4_lz v[1:4], v[2:3], s[4:11], s[12:15] dmask:4 dim:2d tfe
    image_get_lod v[1:2], v[2:3], s[4:11], s[12:15] dmask:3 dim:2d
    image_sample v[1:2], v[2:3], s[4:11], s[12:15] dmask:15 dim:2d d16
