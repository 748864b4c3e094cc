# Scalar ALU (SOP2, SOP1, SOPK, SOPC, SOPP): registers of GCN 1.5 (106
# SGPRs, null, TTMPs, no flat_scratch/xnack_mask names), constants,
# literals, hwreg/sendmsg/waitcnt.
start:
    s_add_u32 s0, s1, s2
    s_add_u32 s105, s104, s103
    s_add_u32 s102, s103, null
    s_sub_u32 vcc_lo, vcc_hi, exec_lo
    s_sub_i32 exec_hi, m0, ttmp15
    s_addc_u32 s0, 0, 64
    s_subb_u32 s0, -1, -16
    s_min_i32 s0, 0.5, -0.5
    s_max_u32 s0, 1.0, -1.0
    s_cselect_b32 s0, 2.0, -2.0
    s_and_b32 s0, 4.0, -4.0
    s_or_b32 s0, 0.15915494, s1
    s_xor_b32 s0, scc, execz
    s_andn2_b32 s0, vccz, s1
    s_add_u32 s0, s1, 0x12345678
    s_add_u32 s0, 0x12345678, s1
    s_add_u32 s0, s1, 65
    s_add_u32 s0, s1, -17
    s_add_u32 s0, s1, lit(5)
    s_add_u32 s0, s1, lit(-16)
    s_add_u32 s0, s1, lit(64)
    s_add_u32 s0, s1, 0xffffffef
    s_and_b64 s[0:1], s[2:3], s[104:105]
    s_and_b64 vcc, exec, ttmp[2:3]
    s_or_b64 s[0:1], ttmp[14:15], 0x1234
    s_lshl_b64 s[0:1], s[2:3], 5
    s_bfe_u64 s[4:5], s[6:7], 0x100005
    s_mul_i32 s0, s1, s2
    s_lshl1_add_u32 s0, s1, s2
    s_lshl4_add_u32 s0, s1, s2
    s_pack_ll_b32_b16 s0, s1, s2
    s_pack_hh_b32_b16 s0, s1, s2
    s_mul_hi_u32 s0, s1, s2
    s_absdiff_i32 s0, s1, s2
    s_mov_b32 s0, s1
    s_mov_b32 s0, null
    s_mov_b32 null, s0
    s_mov_b32 s0, 0x3f800000
    s_mov_b32 s0, m0
    s_mov_b64 s[0:1], exec
    s_mov_b64 exec, s[0:1]
    s_mov_b64 s[0:1], 0x1234
    s_mov_b64 s[0:1], ttmp[4:5]
    s_mov_b64 s[0:1], vcc
    s_not_b32 s0, -7
    s_brev_b64 s[0:1], s[2:3]
    s_bcnt1_i32_b64 s0, s[2:3]
    s_ff1_i32_b32 s0, s1
    s_flbit_i32_i64 s0, s[2:3]
    s_sext_i32_i16 s0, s1
    s_bitset1_b64 s[0:1], s2
    s_getpc_b64 s[0:1]
    s_setpc_b64 s[0:1]
    s_swappc_b64 s[0:1], s[2:3]
    s_rfe_b64 s[0:1]
    s_and_saveexec_b64 s[0:1], s[2:3]
    s_andn1_saveexec_b64 s[0:1], s[2:3]
    s_andn2_wrexec_b64 s[0:1], s[2:3]
    s_bitreplicate_b64_b32 s[0:1], s2
    s_and_saveexec_b32 s0, s1
    s_xnor_saveexec_b32 s0, s1
    s_andn1_wrexec_b32 s0, s1
    s_movrels_b32 s0, s1
    s_movreld_b64 s[0:1], s[2:3]
    s_movrelsd_2_b32 s0, s1
    s_quadmask_b64 s[0:1], s[2:3]
    s_abs_i32 s0, s1
    s_movk_i32 s0, 0x1234
    s_movk_i32 s105, 0xffff
    s_cmovk_i32 s0, 0x8000
    s_cmpk_eq_u32 s0, 0x10
    s_cmpk_lt_i32 s1, 0xfff0
    s_addk_i32 s0, 0x7fff
    s_mulk_i32 s0, 3
    s_version 0x1234
    s_getreg_b32 s0, hwreg(mode, 0, 32)
    s_getreg_b32 s0, hwreg(status, 1, 31)
    s_getreg_b32 s0, hwreg(trapsts, 2, 3)
    s_getreg_b32 s0, hwreg(hw_id, 0, 1)
    s_getreg_b32 s0, hwreg(gpr_alloc, 0, 1)
    s_getreg_b32 s0, hwreg(lds_alloc, 0, 1)
    s_getreg_b32 s0, hwreg(ib_sts, 0, 1)
    s_getreg_b32 s0, hwreg(pc_lo, 0, 1)
    s_getreg_b32 s0, hwreg(pc_hi, 0, 1)
    s_getreg_b32 s0, hwreg(inst_dw0, 0, 1)
    s_getreg_b32 s0, hwreg(inst_dw1, 0, 1)
    s_getreg_b32 s0, hwreg(ib_dbg0, 0, 1)
    s_getreg_b32 s0, hwreg(ib_dbg1, 0, 1)
    s_getreg_b32 s0, hwreg(flush_ib, 0, 1)
    s_getreg_b32 s0, hwreg(sh_mem_bases, 0, 1)
    s_getreg_b32 s0, hwreg(sq_shader_tba_lo, 0, 1)
    s_getreg_b32 s0, hwreg(sq_shader_tba_hi, 0, 1)
    s_getreg_b32 s0, hwreg(sq_shader_tma_lo, 0, 1)
    s_getreg_b32 s0, hwreg(sq_shader_tma_hi, 0, 1)
    s_getreg_b32 s0, hwreg(flat_scr_lo, 0, 1)
    s_getreg_b32 s0, hwreg(flat_scr_hi, 0, 1)
    s_getreg_b32 s0, hwreg(xnack_mask, 0, 1)
    s_getreg_b32 s0, hwreg(pops_packer, 0, 1)
    s_getreg_b32 s0, hwreg(@24, 0, 1)
    s_getreg_b32 s0, hwreg(@63, 31, 32)
    s_setreg_b32 hwreg(trapsts, 4, 8), s3
    s_setreg_b32 hwreg(mode, 0, 4), null
    s_setreg_imm32_b32 hwreg(mode, 0, 4), 0x12
    s_setreg_imm32_b32 hwreg(status, 3, 2), 0xabcdef01
    s_call_b64 s[0:1], start
    s_call_b64 s[4:5], end
    s_waitcnt_vscnt null, 0x10
    s_waitcnt_vscnt s1, 0x0
    s_waitcnt_vmcnt s1, 0x5
    s_waitcnt_expcnt s2, 0x3
    s_waitcnt_lgkmcnt null, 0x1f
    s_subvector_loop_begin s0, end
    s_subvector_loop_end s0, start
    s_cmp_eq_u32 s0, s1
    s_cmp_lg_i32 s0, 0x1234
    s_bitcmp0_b32 s0, 5
    s_bitcmp1_b64 s[0:1], s2
    s_cmp_eq_u64 s[0:1], s[2:3]
    s_cmp_lg_u64 s[0:1], 0x12345
    s_nop 0
    s_nop 7
    s_endpgm
    s_branch start
    s_branch end
    s_cbranch_scc0 start
    s_cbranch_scc1 end
    s_cbranch_vccz end
    s_cbranch_vccnz end
    s_cbranch_execz end
    s_cbranch_execnz end
    s_cbranch_cdbgsys end
    s_cbranch_cdbguser end
    s_cbranch_cdbgsys_or_user end
    s_cbranch_cdbgsys_and_user end
    s_wakeup
    s_barrier
    s_setkill 1
    s_sethalt 5
    s_sleep 3
    s_setprio 2
    s_trap 0x12
    s_icache_inv
    s_incperflevel 1
    s_decperflevel 2
    s_ttracedata
    s_endpgm_saved
    s_endpgm_ordered_ps_done
    s_code_end
    s_inst_prefetch 0x3
    s_clause 0x3f
    s_wait_idle
    s_waitcnt_decptr 0x5
    s_round_mode 0x5
    s_denorm_mode 0xf
    s_ttracedata_imm 0x55
    s_waitcnt vmcnt(0)
    s_waitcnt expcnt(0)
    s_waitcnt lgkmcnt(0)
    s_waitcnt vmcnt(0) & expcnt(0) & lgkmcnt(0)
    s_waitcnt vmcnt(15)
    s_waitcnt vmcnt(16)
    s_waitcnt vmcnt(62) & lgkmcnt(15)
    s_waitcnt lgkmcnt(16)
    s_waitcnt lgkmcnt(62)
    s_waitcnt vmcnt(63) & expcnt(7) & lgkmcnt(63)
    s_waitcnt vmcnt(5) & expcnt(3) & lgkmcnt(33)
    s_sendmsg sendmsg(interrupt)
    s_sendmsg sendmsg(gs, emit, 1)
    s_sendmsg sendmsg(gs, cut, 0)
    s_sendmsg sendmsg(gs, nop)
    s_sendmsg sendmsg(gs_done, nop)
    s_sendmsg sendmsg(gs, emit_cut, 3)
    s_sendmsg sendmsg(savewave)
    s_sendmsg sendmsg(stall_wave_gen)
    s_sendmsg sendmsg(halt_waves)
    s_sendmsg sendmsg(ordered_ps_done)
    s_sendmsg sendmsg(early_prim_dealloc)
    s_sendmsg sendmsg(gs_alloc_req)
    s_sendmsg sendmsg(get_doorbell)
    s_sendmsg sendmsg(system)
    s_sendmsghalt sendmsg(gs_done, cut, 2)
end:
    s_endpgm
